module github.com/riodraughts/rio

go 1.26.0

require (
	github.com/rs/zerolog v1.35.1
	golang.org/x/sync v0.25.0
)

require (
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	golang.org/x/sys v0.29.0 // indirect
)
