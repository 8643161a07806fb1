package safetext

// Sample is a string as a hostile source may hand it (a server, a file
// of the user's, a jq program) and what Strip leaves of it.
type Sample struct{ In, Want string }

// HostileSamples are the strings Strip is tested with, one of each kind
// of terminal control it removes. The tests of every path by which text
// reaches the terminal (the API's answers, the launch snapshot, --jq's
// errors) feed these through it.
func HostileSamples() []Sample {
	return []Sample{
		{"plain name", "plain name"},
		{"Zoë Œuvre 東京 🏦", "Zoë Œuvre 東京 🏦"},
		{"\x1b[2J\x1b[HCleared", "Cleared"},                               // CSI erase + cursor home
		{"up\x1b[5Aand\x1b[10;20Hmoved", "upandmoved"},                    // cursor moves
		{"\x1b]0;owned title\x07Acme", "Acme"},                            // OSC 0 retitle (BEL)
		{"\x1b]0;owned\x1b\\Acme", "Acme"},                                // OSC 0 retitle (ST)
		{"\x1b]52;c;cm0gLXJmIH4=\x07Acme", "Acme"},                        // OSC 52 clipboard write
		{"\x1bP1$qm\x1b\\Acme", "Acme"},                                   // DCS
		{"\x1b_apc payload\x1b\\Acme", "Acme"},                            // APC
		{"bare\x1b escape", "barescape"},                                  // lone ESC: ESC SP e is itself a sequence
		{"c1\u009b31mcsi", "c1csi"},                                       // C1 CSI with its parameters
		{"c1 \u009d0;t\u009c osc", "c1  osc"},                             // C1 OSC … ST
		{"tab\there\nnew\rline", "tab here new line"},                     // whitespace controls → space
		{"nul\x00bell\x07del\x7fbs\x08", "nulbelldelbs"},                  // C0 and DEL
		{"pay\u202eevil\u202c.exe", "payevil.exe"},                        // bidi override
		{"trailing\x1b", "trailing"},                                      // ESC at the very end
		{"bad\xffutf8", "badutf8"},                                        // invalid UTF-8
		{"\u0085next line", " next line"},                                 // NEL
		{"\x1b[38;2;255;0;0mred\x1b[0m text", "red text"},                 // SGR
		{"\x1b[?1049h\x1b[?25lalt screen", "alt screen"},                  // private modes
		{"link \x1b]8;;http://evil\x1b\\here\x1b]8;;\x1b\\", "link here"}, // OSC 8 hyperlink
		{"ACME\x1b[31m red\x1b[0m\x07\nline\u202eevil", "ACME red lineevil"},
	}
}

// Dirty is the first rune of s a terminal would act on (a control
// character, an escape, a C1 control, a bidi override or isolate); ok is
// false when s has none: what a string that passed Strip must be.
func Dirty(s string) (r rune, ok bool) {
	for _, r := range s {
		if r == 0x1b || r == 0x9b || r == 0x7f || r < 0x20 || (r >= 0x80 && r <= 0x9f) ||
			(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			return r, true
		}
	}
	return 0, false
}
