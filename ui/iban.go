package ui

import (
	"fmt"
	"strings"

	qrcode "github.com/skip2/go-qrcode"
)

// normalizeIBAN removes spaces and upper-cases an IBAN.
func normalizeIBAN(iban string) string {
	return strings.ToUpper(strings.Join(strings.Fields(iban), ""))
}

// GroupIBAN writes an IBAN in groups of four characters, the way it is
// printed on statements ("FR76 3000 6000 0112 3456 7890 189").
func GroupIBAN(iban string) string {
	n := normalizeIBAN(iban)
	var b strings.Builder
	b.Grow(len(n) + len(n)/4)
	for i, r := range n {
		if i > 0 && i%4 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// ValidIBAN checks the ISO 13616 structure and the ISO 7064 mod-97 check
// digits: the rearranged number must leave a remainder of 1.
func ValidIBAN(iban string) bool {
	n := normalizeIBAN(iban)
	if len(n) < 15 || len(n) > 34 {
		return false
	}
	for i, r := range n {
		switch {
		case i < 2 && (r < 'A' || r > 'Z'):
			return false
		case i >= 2 && i < 4 && (r < '0' || r > '9'):
			return false
		case (r < '0' || r > '9') && (r < 'A' || r > 'Z'):
			return false
		}
	}
	rearranged := n[4:] + n[:4]
	rem := 0
	for _, r := range rearranged {
		if r >= 'A' {
			v := int(r-'A') + 10
			rem = (rem*100 + v) % 97
		} else {
			rem = (rem*10 + int(r-'0')) % 97
		}
	}
	return rem == 1
}

// EPCPayload builds the EPC069-12 ("SEPA payment QR", version 002) text for
// a credit transfer to the account. The amount line is left empty so the
// payer chooses it.
func EPCPayload(bic, name, iban string) string {
	name = clean(name)
	if r := []rune(name); len(r) > 70 {
		name = string(r[:70])
	}
	return strings.Join([]string{
		"BCD", "002", "1", "SCT",
		strings.ToUpper(strings.TrimSpace(clean(bic))),
		name,
		normalizeIBAN(clean(iban)),
	}, "\n")
}

// qrBlocks draws content as a QR code with half blocks, two modules per
// character row. A quiet zone of two modules surrounds it. On a dark
// background the light modules are drawn so that the code reads as dark on
// light, which is what scanners expect.
func qrBlocks(content string, isDark bool) (string, int, int, error) {
	q, err := qrcode.New(content, qrcode.Medium)
	if err != nil {
		return "", 0, 0, fmt.Errorf("could not encode the QR code: %w", err)
	}
	q.DisableBorder = true
	bm := q.Bitmap()
	const quiet = 2
	size := len(bm) + 2*quiet
	dark := func(y, x int) bool {
		y -= quiet
		x -= quiet
		if y < 0 || x < 0 || y >= len(bm) || x >= len(bm) {
			return false
		}
		return bm[y][x]
	}
	ink := func(y, x int) bool {
		if y >= size {
			// The padding row under an odd-sized code belongs to the quiet zone.
			return isDark
		}
		return dark(y, x) != isDark
	}
	var b strings.Builder
	for y := 0; y < size; y += 2 {
		if y > 0 {
			b.WriteByte('\n')
		}
		for x := 0; x < size; x++ {
			top, bottom := ink(y, x), ink(y+1, x)
			switch {
			case top && bottom:
				b.WriteString("█")
			case top:
				b.WriteString("▀")
			case bottom:
				b.WriteString("▄")
			default:
				b.WriteByte(' ')
			}
		}
	}
	return b.String(), size, (size + 1) / 2, nil
}
