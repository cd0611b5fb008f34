package embed

import (
	"context"
	"slices"
	"testing"
)

func TestModelRoundTrip(t *testing.T) {
	m := TrainCorpus([]string{"the heater trips when the watchdog fires", "a change request moves through stages", "the heater stays off"}, 4)
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := UnmarshalModel(b)
	if err != nil {
		t.Fatal(err)
	}
	if back.Name() != m.Name() || back.Dim() != m.Dim() || back.VocabSize() != m.VocabSize() {
		t.Errorf("read back %s/%d/%d, want %s/%d/%d", back.Name(), back.Dim(), back.VocabSize(), m.Name(), m.Dim(), m.VocabSize())
	}
	ctx := context.Background()
	want, _ := m.Embed(ctx, []string{"heater watchdg"})
	got, _ := back.Embed(ctx, []string{"heater watchdg"})
	if !slices.Equal(got[0], want[0]) {
		t.Errorf("read back embeds %v, want %v", got[0], want[0])
	}
	for _, bad := range [][]byte{nil, []byte("nope"), b[:len(b)-1], append(slices.Clone(b), 0), b[:len(modelMagic)+1]} {
		if _, err := UnmarshalModel(bad); err == nil {
			t.Errorf("%d bytes of a bad model read", len(bad))
		}
	}
}

func FuzzUnmarshalModel(f *testing.F) {
	m := TrainCorpus([]string{"alpha beta", "beta gamma"}, 2)
	b, _ := m.MarshalBinary()
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		if m, err := UnmarshalModel(data); err == nil {
			if _, err := m.Embed(context.Background(), []string{"alpha"}); err != nil {
				t.Fatal(err)
			}
		}
	})
}
