package storagetest

import "testing"

// TestParseAck: a crash child's lines read back as they were written, and
// no other line is taken for an acknowledgement.
func TestParseAck(t *testing.T) {
	for _, a := range []Ack{{7, 1, -1, "create"}, {7, 3, -1, "setup"}, {12, 40, 35, "A4A5"}} {
		got, ok := ParseAck(a.String())
		if !ok || got != a {
			t.Errorf("ParseAck(%q) = %v, %v; want %v", a.String(), got, ok, a)
		}
	}
	for _, line := range []string{"", "error: worker 1: closed", "ack 7 1 -1", "ack x 1 -1 create", "ack 7 1 -1 create extra", "nack 7 1 -1 create"} {
		if a, ok := ParseAck(line); ok {
			t.Errorf("ParseAck(%q) = %v, want no ack", line, a)
		}
	}
}
