package engine

import "unsafe"

// prependBuf is the buffer of the last long text AppendText built: the
// text is buf[lo:], and buf[:lo] is free room in front of it.
//
// Daml builds long texts right to left: a derived Show instance composes
// ShowS functions (\rest -> piece <> rest), so showing a list or record
// prepends each small piece to the whole rest of the output. Copying the
// rest at every step made that quadratic: Splice's transfer code shows a
// list of transfer outputs, and in the amulet test suite 1 372 appends to
// texts over 1 000 bytes copied 11 MB, 8 % of the suite's allocation.
// With room in front, a piece is written before the rest it prepends to,
// and the rest is not copied.
//
// It is sound because every text handed out from buf is a suffix
// buf[x:] with x >= lo and is never written again: only the free room
// below lo is. A machine runs on one goroutine, and runOnce drops the
// buffer with the rest of the machine's state.
type prependBuf struct {
	buf []byte
	lo  int
}

// prependMin is the length from which a text being prepended to gets a
// buffer with room in front: below it, a copy costs less than keeping
// the room.
const prependMin = 256

// appendText returns a + b (AppendText).
func (m *Machine) appendText(a, b Text) Text {
	if len(b) < prependMin || len(a) == 0 {
		return a + b
	}
	p := &m.prepend
	if len(a) <= p.lo && len(b) == len(p.buf)-p.lo && unsafe.StringData(string(b)) == &p.buf[p.lo] {
		// b is the text last built here: a goes into the room before it.
		p.lo -= len(a)
		copy(p.buf[p.lo:], a)
		return Text(unsafe.String(&p.buf[p.lo], len(p.buf)-p.lo))
	}
	// A new buffer with as much room in front as the text is long, so
	// that repeated prepends copy O(n) bytes in all.
	n := len(a) + len(b)
	buf := make([]byte, 2*n)
	copy(buf[n:], a)
	copy(buf[n+len(a):], b)
	p.buf, p.lo = buf, n
	return Text(unsafe.String(&buf[n], n))
}
