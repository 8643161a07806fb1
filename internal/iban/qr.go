package iban

import (
	"fmt"
	"strings"

	qrcode "github.com/skip2/go-qrcode"
)

// EPCPayload builds the EPC069-12 ("SEPA payment QR", version 002) text for
// a credit transfer to the account. The amount line is left empty so the
// payer chooses it; the name is cut to the 70 characters the format allows.
func EPCPayload(bic, name, accountIBAN string) string {
	if r := []rune(name); len(r) > 70 {
		name = string(r[:70])
	}
	return strings.Join([]string{
		"BCD", "002", "1", "SCT",
		strings.ToUpper(strings.TrimSpace(bic)),
		name,
		Compact(accountIBAN),
	}, "\n")
}

// QuietZone is the light margin, in modules, that ISO/IEC 18004 requires
// around a QR code; phone cameras misread codes drawn with less.
const QuietZone = 4

// QR is a QR code drawn with half blocks, two modules per character row.
type QR struct {
	Text          string // rows joined by "\n"
	Width, Height int    // in terminal cells
}

// HalfBlocks draws content as a QR code with a QuietZone margin. On a dark
// background the light modules are drawn, so the code still reads as dark
// on light, which is what scanners expect.
func HalfBlocks(content string, darkBackground bool) (QR, error) {
	q, err := qrcode.New(content, qrcode.Medium)
	if err != nil {
		return QR{}, fmt.Errorf("could not encode the QR code: %w", err)
	}
	q.DisableBorder = true
	bm := q.Bitmap()
	size := len(bm) + 2*QuietZone
	dark := func(y, x int) bool {
		y -= QuietZone
		x -= QuietZone
		if y < 0 || x < 0 || y >= len(bm) || x >= len(bm) {
			return false
		}
		return bm[y][x]
	}
	ink := func(y, x int) bool {
		if y >= size {
			// The padding row under an odd-sized code belongs to the quiet zone.
			return darkBackground
		}
		return dark(y, x) != darkBackground
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
	return QR{Text: b.String(), Width: size, Height: (size + 1) / 2}, nil
}
