package gen

import (
	"fmt"
	"math/bits"
)

// Every generated value is a function of the seed and of where it is: the
// object's identity (its type and id, or its parent's identity and the
// field that leads to it) and the field's name. Nothing is drawn from a
// shared random source, so an answer does not depend on what was asked
// before it, on the order of goroutines, or on the process.

// hashString is FNV-1a, 64 bits.
func hashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// mix combines two hashes (splitmix64's finaliser over their sum).
func mix(a, b uint64) uint64 {
	z := a + 0x9e3779b97f4a7c15 + bits.RotateLeft64(b, 31)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// rnd draws a sequence of numbers from one hash, for a value that needs
// several (an IBAN's digits).
type rnd struct{ h uint64 }

func (r *rnd) next() uint64 {
	r.h = mix(r.h, 0x2545f4914f6cdd1d)
	return r.h
}

// intn is in [0, n).
func (r *rnd) intn(n int) int {
	if n <= 0 {
		return 0
	}
	return int(r.next() % uint64(n))
}

// between is in [lo, hi].
func (r *rnd) between(lo, hi int) int { return lo + r.intn(hi-lo+1) }

func pick[T any](r *rnd, list []T) T { return list[r.intn(len(list))] }

// uuid formats a hash as a version-4 UUID, the platform's id format.
func uuid(h uint64) string {
	r := rnd{h: h}
	a, b := r.next(), r.next()
	return fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", uint32(a>>32), uint16(a>>16), uint16(a)&0x0fff, uint16(b>>48)&0x3fff|0x8000, b&0xffffffffffff)
}
