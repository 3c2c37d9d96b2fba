package gui

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/riodraughts/rio/internal/text"
)

// Body limits: a game is a few kilobytes; a PDN file of a whole event a
// few hundred.
const (
	maxJSONBody = 256 << 10
	maxPDNBody  = 4 << 20
)

// guard refuses requests that do not come from the page Rio serves: a Host
// that is not the served port on localhost or a literal IP (a DNS name
// could be an attacker's, rebound to this machine), or an Origin other
// than the Host itself (another site's page calling the engine).
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := s.checkHost(r.Host); err != nil {
			httpError(w, http.StatusForbidden, err)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host {
			httpError(w, http.StatusForbidden, fmt.Errorf("origin %q is not this server (%s)", text.Clip(o, 80), r.Host))
			return
		}
		// Browsers say where a request comes from: only this origin's page
		// (or the user typing the address: none) may use the engine. This
		// also covers requests that carry no Origin, such as an <img> or
		// an EventSource of another localhost port's page (same-site).
		if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
			httpError(w, http.StatusForbidden, fmt.Errorf("%s request refused: only this server's page may use it", text.Clip(site, 80)))
			return
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("X-Frame-Options", "DENY")
		w.Header().Set("Referrer-Policy", "no-referrer")
		next.ServeHTTP(w, r)
	})
}

// checkHost accepts host:port when the port is the one served and the host
// is localhost or an IP address.
func (s *Server) checkHost(hostport string) error {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return fmt.Errorf("host %q: expected host:port", text.Clip(hostport, 80))
	}
	if s.port != "" && port != s.port {
		return fmt.Errorf("host %q: this server is on port %s", text.Clip(hostport, 80), s.port)
	}
	if strings.EqualFold(host, "localhost") || net.ParseIP(host) != nil {
		return nil
	}
	return fmt.Errorf("host %q is not an address of this server (use localhost or its IP)", text.Clip(hostport, 80))
}

// apiError is the JSON body of every error answer; the page shows
// message.
type apiError struct {
	Error string `json:"error"`
}

func httpError(w http.ResponseWriter, code int, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(apiError{Error: err.Error()})
}

// badRequest is an error in what the page sent: answered 400 with its
// message.
type badRequest struct{ error }

func badf(format string, args ...any) error { return badRequest{fmt.Errorf(format, args...)} }

// fail answers err: 400 for bad input, 413 for a body too large, 500
// otherwise.
func fail(w http.ResponseWriter, err error) {
	var br badRequest
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		httpError(w, http.StatusRequestEntityTooLarge, fmt.Errorf("request body larger than %d bytes", tooBig.Limit))
	case errors.As(err, &br):
		httpError(w, http.StatusBadRequest, err)
	default:
		httpError(w, http.StatusInternalServerError, err)
	}
}

// decodeJSON reads a bounded JSON body into v, refusing unknown fields
// and trailing data.
func decodeJSON(w http.ResponseWriter, r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(ct, "application/json") {
		return badf("content type %q: expected application/json", text.Clip(ct, 80))
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxJSONBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return err
		}
		return badf("bad JSON: %v", err)
	}
	if dec.More() {
		return badf("bad JSON: more than one value")
	}
	return nil
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(v)
}
