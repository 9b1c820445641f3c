package numeric

import "testing"

var sinkN Numeric
var sinkS string

// benchPair returns operands whose unscaled values fit in 64 bits.
func benchPair() (Numeric, Numeric) {
	return MustParse("12345678.1234567890"), MustParse("-98765.4321098765")
}

// benchPairLarge returns operands whose unscaled values exceed 64 bits.
func benchPairLarge() (Numeric, Numeric) {
	return MustParse("123456789012.1234567890"), MustParse("-9876543210.9876543210")
}

func BenchmarkAdd(b *testing.B) {
	x, y := benchPair()
	b.ReportAllocs()
	for b.Loop() {
		sinkN, _ = x.Add(y)
	}
}

func BenchmarkMul(b *testing.B) {
	x, y := benchPair()
	b.ReportAllocs()
	for b.Loop() {
		sinkN, _ = x.Mul(y, 10)
	}
}

// BenchmarkMulLarge uses operands beyond 64-bit unscaled values.
func BenchmarkMulLarge(b *testing.B) {
	x, y := benchPairLarge()
	b.ReportAllocs()
	for b.Loop() {
		sinkN, _ = x.Mul(y, 10)
	}
}

func BenchmarkDiv(b *testing.B) {
	x, y := benchPair()
	b.ReportAllocs()
	for b.Loop() {
		sinkN, _ = x.Div(y, 10)
	}
}

// BenchmarkDivLarge has a divisor beyond 64 bits (math/big path).
func BenchmarkDivLarge(b *testing.B) {
	x, y := benchPairLarge()
	b.ReportAllocs()
	for b.Loop() {
		sinkN, _ = x.Div(y, 10)
	}
}

func BenchmarkRound(b *testing.B) {
	x, _ := benchPair()
	b.ReportAllocs()
	for b.Loop() {
		sinkN, _ = x.Round(2)
	}
}

func BenchmarkString(b *testing.B) {
	x, _ := benchPair()
	b.ReportAllocs()
	for b.Loop() {
		sinkS = x.String()
	}
}

func BenchmarkParseText(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkN, _ = ParseText(10, "12345678.123456789")
	}
}
