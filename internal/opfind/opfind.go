// Package opfind finds the GraphQL a code base holds: *.graphql and *.gql
// files, and string literals in Go, TypeScript, JavaScript and Python
// that are GraphQL (tagged templates such as gql`…`, calls such as
// gql("…") and graphql(`…`), strings after a /* GraphQL */ comment, and
// any string that starts with query, mutation, subscription or fragment).
// Each document keeps, for every character, where it came from in its
// file, so a position in the GraphQL is a file:line:column in the source,
// whatever escapes, interpolations or constants it was built from. What
// cannot be read is skipped with a note, never a crash.
package opfind

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// Kind is how a document was found, which says how sure it is GraphQL.
type Kind int

const (
	// GraphQLFile: a .graphql or .gql file, read whole.
	GraphQLFile Kind = iota + 1
	// Tagged: marked as GraphQL by its code: gql`…`, graphql(…),
	// /* GraphQL */ or # language=graphql before it.
	Tagged
	// Keyword: a string that starts with query, mutation, subscription or
	// fragment and holds a selection; it may be prose that happens to.
	Keyword
)

// Document is GraphQL text found in a file.
type Document struct {
	File string // the path as found
	Text string
	Kind Kind
	// Unresolved are the interpolations (${expr}, {expr}) the text was
	// built around whose value is not a literal of the same file: each is
	// a blank in Text.
	Unresolved []string

	src    *source
	origin []int32 // per rune of Text: its byte offset in the file; nil when Text is the file
	end    int     // the byte offset just past the literal, for a position at the end of Text
	lines  []int   // rune index of each line's start in Text, computed on first use
}

// Note says what was skipped, and why.
type Note struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

func (n Note) String() string {
	if n.Line == 0 {
		return n.File + ": " + n.Message
	}
	return fmt.Sprintf("%s:%d: %s", n.File, n.Line, n.Message)
}

// source is a file's contents and where its lines start.
type source struct {
	text  string
	lines []int // byte offset of each line's start
}

func newSource(text string) *source {
	s := &source{text: text, lines: []int{0}}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			s.lines = append(s.lines, i+1)
		case '\n':
			s.lines = append(s.lines, i+1)
		}
	}
	return s
}

// position is the 1-based line and column (in characters) of byte offset
// off of the file.
func (s *source) position(off int) (line, col int) {
	off = min(max(off, 0), len(s.text))
	i, found := slices.BinarySearch(s.lines, off)
	if !found {
		i--
	}
	return i + 1, utf8.RuneCountInString(s.text[s.lines[i]:off]) + 1
}

// Position maps a 1-based line and column of Text (columns in characters,
// as gqlparser counts them) to the file's.
func (d *Document) Position(line, col int) (fileLine, fileCol int) {
	if d.origin == nil {
		return line, col
	}
	if d.lines == nil {
		d.lines = textLines(d.Text)
	}
	if line < 1 || line > len(d.lines) {
		return d.src.position(d.end)
	}
	i := d.lines[line-1] + col - 1
	if i < 0 || i >= len(d.origin) {
		return d.src.position(d.end)
	}
	return d.src.position(int(d.origin[i]))
}

// Start is where the document starts in its file.
func (d *Document) Start() (line, col int) {
	if len(d.origin) == 0 {
		return 1, 1
	}
	return d.src.position(int(d.origin[0]))
}

// textLines are the rune indexes where Text's lines start, with \r\n, \r
// and \n each ending a line, as gqlparser's lexer counts them.
func textLines(text string) []int {
	lines := []int{0}
	i := 0
	prevCR := false
	for _, r := range text {
		i++
		switch {
		case r == '\n' && prevCR:
			lines[len(lines)-1] = i
		case r == '\n' || r == '\r':
			lines = append(lines, i)
		}
		prevCR = r == '\r'
	}
	return lines
}

// Options tune a search.
type Options struct {
	// MaxFileSize skips larger files with a note (0: 4 MB): a minified
	// bundle is nobody's source.
	MaxFileSize int64
}

const defaultMaxFileSize = 4 << 20

// language is which scanner reads a file, by its extension.
type language int

const (
	langNone language = iota
	langGraphQL
	langGo
	langJS
	langPython
)

func languageOf(path string) language {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".graphql", ".gql":
		return langGraphQL
	case ".go":
		return langGo
	case ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts":
		return langJS
	case ".py":
		return langPython
	}
	return langNone
}

// skippedDirs are folders of other people's code or of tools.
func skippedDir(name string) bool {
	switch name {
	case "node_modules", "vendor", "__pycache__", "site-packages":
		return true
	}
	return strings.HasPrefix(name, ".") && name != "." && name != ".."
}

// Find reads every file under paths (files or folders) that may hold
// GraphQL, in a stable order, and returns their documents and the notes
// on what was skipped. An error is a path that does not exist or cannot
// be listed at all.
func Find(paths []string, opts Options) (docs []*Document, notes []Note, files int, err error) {
	if opts.MaxFileSize == 0 {
		opts.MaxFileSize = defaultMaxFileSize
	}
	var list []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, nil, 0, err
		}
		if !info.IsDir() {
			if languageOf(p) == langNone {
				notes = append(notes, Note{File: p, Message: "skipped: check reads .graphql, .gql, .go, .ts, .tsx, .js and .py files"})
				continue
			}
			list = append(list, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				notes = append(notes, Note{File: path, Message: "skipped: " + unwrapPath(err)})
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if path != p && skippedDir(d.Name()) {
					return fs.SkipDir
				}
				return nil
			}
			if languageOf(path) != langNone {
				list = append(list, path)
			}
			return nil
		})
		if err != nil {
			return nil, nil, 0, err
		}
	}
	seen := map[string]bool{}
	for _, path := range list {
		if seen[path] {
			continue
		}
		seen[path] = true
		src, note := readFile(path, opts.MaxFileSize)
		if note != "" {
			notes = append(notes, Note{File: path, Message: note})
			continue
		}
		files++
		d, n := Extract(path, src)
		docs = append(docs, d...)
		notes = append(notes, n...)
	}
	return docs, notes, files, nil
}

func unwrapPath(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// readFile reads a regular file (a FIFO or a device would hang the read)
// of at most max bytes; note says why it was not read.
func readFile(path string, max int64) (src []byte, note string) {
	info, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, "skipped: " + unwrapPath(err)
	case !info.Mode().IsRegular():
		return nil, "skipped: not a regular file"
	case info.Size() > max:
		return nil, fmt.Sprintf("skipped: larger than %d MB", max>>20)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, "skipped: " + unwrapPath(err)
	}
	defer f.Close()
	src, err = io.ReadAll(io.LimitReader(f, max+1))
	switch {
	case err != nil:
		return nil, "skipped: " + unwrapPath(err)
	case int64(len(src)) > max:
		return nil, fmt.Sprintf("skipped: larger than %d MB", max>>20)
	case bytes.IndexByte(src, 0) >= 0:
		return nil, "skipped: a binary file"
	}
	return src, ""
}

// Extract finds the documents in one file's contents; path names it and
// its extension says how to read it.
func Extract(path string, content []byte) ([]*Document, []Note) {
	lang := languageOf(path)
	text := string(content)
	if lang == langGraphQL {
		if strings.TrimSpace(text) == "" {
			return nil, nil
		}
		return []*Document{{File: path, Text: text, Kind: GraphQLFile, src: newSource(text), end: len(text)}}, nil
	}
	if lang == langGo && generatedGo(text) {
		return nil, []Note{{File: path, Message: "skipped: generated code (Code generated … DO NOT EDIT.)"}}
	}
	src := newSource(text)
	var lits []*literal
	switch lang {
	case langGo:
		lits = joinConcatenations(text, scanGo(text), false)
	case langJS:
		lits = joinConcatenations(text, scanJS(text), false)
	case langPython:
		lits = joinConcatenations(text, scanPython(text), true)
	default:
		return nil, nil
	}
	return documents(path, src, lits)
}

// generatedGo: the file says it is generated, as Go's convention has it,
// on a line of its own before the package clause.
func generatedGo(text string) bool {
	head, _, _ := strings.Cut(text, "\npackage ")
	for line := range strings.Lines(head) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "// Code generated ") && strings.HasSuffix(line, " DO NOT EDIT.") {
			return true
		}
	}
	return false
}
