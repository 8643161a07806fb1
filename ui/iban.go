package ui

import (
	"fmt"
	"strings"

	qrcode "github.com/skip2/go-qrcode"

	"github.com/partnertui/partnertui/api"
)

// EPCPayload builds the EPC069-12 ("SEPA payment QR", version 002) text for
// a credit transfer to the account. The amount line is left empty so the
// payer chooses it.
func EPCPayload(bic, name, iban string) string {
	name = api.Sanitize(name)
	if r := []rune(name); len(r) > 70 {
		name = string(r[:70])
	}
	return strings.Join([]string{
		"BCD", "002", "1", "SCT",
		strings.ToUpper(strings.TrimSpace(api.Sanitize(bic))),
		name,
		api.CompactIBAN(api.Sanitize(iban)),
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
