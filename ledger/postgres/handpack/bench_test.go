package handpack

import "testing"

// BenchmarkPack packs a Doppelkopf hand's texts against its dictionary.
func BenchmarkPack(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		body, err := Pack("doppelkopf", doppelkopf[0], doppelkopf[1], doppelkopf[2])
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(body)), "bytes")
	}
}

// BenchmarkUnpack unpacks it.
func BenchmarkUnpack(b *testing.B) {
	body, err := Pack("doppelkopf", doppelkopf[0], doppelkopf[1], doppelkopf[2])
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, _, err := Unpack(body); err != nil {
			b.Fatal(err)
		}
	}
}
