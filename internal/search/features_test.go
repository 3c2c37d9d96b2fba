package search

import "testing"

func TestApplyFeatures(t *testing.T) {
	f, err := ApplyFeatures(DefaultFeatures, "+AdaptiveTime, -lmr +LogLMR")
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultFeatures
	want.AdaptiveTime, want.LMR, want.LogLMR = true, false, true
	if f != want {
		t.Errorf("got %+v, want %+v", f, want)
	}
	if f, err := ApplyFeatures(DefaultFeatures, ""); err != nil || f != DefaultFeatures {
		t.Errorf("empty spec: %+v %v", f, err)
	}
	for _, bad := range []string{"+Nonsense", "-", "+"} {
		if f, err := ApplyFeatures(DefaultFeatures, bad); err == nil || f != DefaultFeatures {
			t.Errorf("%q: %+v %v, want an error and the base", bad, f, err)
		}
	}
}
