package iban

import (
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	valid := []string{"FR7630006000011234567890189", "fr76 3000 6000 0112 3456 7890 189", "DE89370400440532013000",
		"GB82WEST12345698765432", "FR2730003000706315734174B93", "BE71096123456769", "NO9386011117947"}
	for _, s := range valid {
		if err := Check(s); err != nil {
			t.Errorf("Check(%q) = %v", s, err)
		}
	}
	invalid := []struct {
		in   string
		want error
	}{
		{"", ErrShape},
		{"FR7630006000011234567890188", ErrChecksum},
		{"FR76", ErrLength},
		{"1R7630006000011234567890189", ErrShape},
		{"FRxx30006000011234567890189", ErrShape},
		{"FR76300060000112345678901$9", ErrShape},
		{strings.Repeat("1", 40), ErrShape},
		// A 17-character "FR" number passes mod-97 but is not a French IBAN.
		{"FR3330006000011234", ErrLength},
		{"ZZ8930006000011234567890189", ErrCountry},
	}
	for _, tc := range invalid {
		if err := Check(tc.in); !errors.Is(err, tc.want) {
			t.Errorf("Check(%q) = %v, want %v", tc.in, err, tc.want)
		}
		if Valid(tc.in) {
			t.Errorf("Valid(%q) = true", tc.in)
		}
	}
}

func TestShortFrenchNumberWithGoodChecksumIsInvalid(t *testing.T) {
	t.Parallel()
	// Build a 17-character FR number whose mod-97 is right, so only the
	// length rule can refuse it.
	body := "3000600001123"
	for cd := 2; cd <= 98; cd++ {
		s := "FR" + pad2(cd) + body
		if len(s) != 17 {
			t.Fatalf("bad test setup %q", s)
		}
		if err := Check(s); errors.Is(err, ErrChecksum) {
			continue
		}
		if !errors.Is(Check(s), ErrLength) {
			t.Fatalf("Check(%q) = %v, want ErrLength", s, Check(s))
		}
		return
	}
	t.Fatal("no check digits give a mod-97 match")
}

func pad2(n int) string {
	if n < 10 {
		return "0" + string(rune('0'+n))
	}
	return string(rune('0'+n/10)) + string(rune('0'+n%10))
}

func TestFormat(t *testing.T) {
	t.Parallel()
	if got := Format(" fr7630006000011234567890189 "); got != "FR76 3000 6000 0112 3456 7890 189" {
		t.Errorf("Format = %q", got)
	}
	if Format("") != "" {
		t.Error("Format of empty")
	}
	if got := Compact("fr76 3000\t6000"); got != "FR7630006000" {
		t.Errorf("Compact = %q", got)
	}
}

func TestLooksLike(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"FR76 3000 6000 0112 3456 7890 189", "fr7630006000011234", "DE89 3704 0044 0532 0130 00", "NL60 SWNB 7503 9822 89"} {
		if !LooksLike(s) {
			t.Errorf("LooksLike(%q) = false", s)
		}
	}
	for _, s := range []string{"", "Dupont", "FR76", "Maison Dubois EURL", "acme 2024 savings", "ZZ76300060000112"} {
		if LooksLike(s) {
			t.Errorf("LooksLike(%q) = true", s)
		}
	}
}

func TestEPCPayloadAndQR(t *testing.T) {
	t.Parallel()
	p := EPCPayload("SWNBFR22", "Jane Doe", "FR76 3000 6000 0112 3456 7890 189")
	want := "BCD\n002\n1\nSCT\nSWNBFR22\nJane Doe\nFR7630006000011234567890189"
	if p != want {
		t.Fatalf("payload = %q", p)
	}
	if long := EPCPayload("", strings.Repeat("é", 80), "x"); len([]rune(strings.Split(long, "\n")[5])) != 70 {
		t.Fatal("the name is not cut to 70 characters")
	}
	q, err := HalfBlocks(p, false)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(q.Text, "\n")
	if len(lines) != q.Height || ansi.StringWidth(lines[0]) != q.Width || q.Height != (q.Width+1)/2 {
		t.Fatalf("QR is %d lines of %d cells, reported %d×%d", len(lines), ansi.StringWidth(lines[0]), q.Width, q.Height)
	}
	if strings.Trim(q.Text, "█▀▄ \n") != "" {
		t.Fatal("QR uses characters other than half blocks")
	}
	// The quiet zone: on a light background the first QuietZone/2 rows and
	// the first QuietZone columns of every row are blank.
	for y := 0; y < QuietZone/2; y++ {
		if strings.TrimSpace(lines[y]) != "" {
			t.Fatalf("row %d of the quiet zone is not blank: %q", y, lines[y])
		}
	}
	for y, l := range lines {
		r := []rune(l)
		if strings.TrimSpace(string(r[:QuietZone])) != "" || strings.TrimSpace(string(r[len(r)-QuietZone:])) != "" {
			t.Fatalf("row %d has ink inside the %d-module quiet zone: %q", y, QuietZone, l)
		}
	}
	dark, _ := HalfBlocks(p, true)
	if dark.Text == q.Text {
		t.Fatal("the dark-background QR is not inverted")
	}
}

// A search is a whole IBAN, a part of one (its start or its last digits,
// spaces allowed), or neither.
func TestWholeAndPart(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in    string
		whole bool
		part  string
	}{
		{"FR76 1741 8000 0185 2140 9315 521", true, ""},
		{"fr7617418000018521409315521", true, ""},
		{"FR76 1741 8000 0185 2140 9315 522", true, ""}, // wrong check digits: still looked for
		{"FR76 1741 8000", false, "FR7617418000"},
		{"fr76", false, "FR76"},
		{"9315 521", false, "9315521"},
		{"9315521", false, "9315521"},
		{"521", false, ""},                            // too few digits to mean anything
		{"FR", false, ""},                             // a country alone
		{"FR7x 1741", false, ""},                      // no check digits
		{"Dupont", false, ""},                         // a name
		{"Main account", false, ""},                   // a name
		{"ZZ76 1741", false, ""},                      // no such country
		{"DE89 3704 0044 0532 0130 00 99", false, ""}, // longer than a German IBAN
	}
	for _, c := range cases {
		if got := Whole(c.in); got != c.whole {
			t.Errorf("Whole(%q) = %v, want %v", c.in, got, c.whole)
		}
		if got := Part(c.in); got != c.part {
			t.Errorf("Part(%q) = %q, want %q", c.in, got, c.part)
		}
	}
	const acct = "FR76 1741 8000 0185 2140 9315 521"
	for part, want := range map[string]bool{"FR7617418000": true, "9315521": true, "FR7699": false, "9315": false, "1741": false, "": false} {
		if got := HasPart(acct, part); got != want {
			t.Errorf("HasPart(%q, %q) = %v, want %v", acct, part, got, want)
		}
	}
}
