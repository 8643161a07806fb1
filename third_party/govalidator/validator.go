// Package govalidator is the one function of github.com/asaskevich/govalidator
// that fosite calls, copied unchanged. The whole package compiles about 100
// regular expressions when a program starts (5 ms here), a cost every
// partnertui command paid for the embedded emulator; see third_party/README.md.
package govalidator

import "net/url"

// IsRequestURL checks if the string rawurl, assuming
// it was received in an HTTP request, is a valid
// URL confirm to RFC 3986
func IsRequestURL(rawurl string) bool {
	url, err := url.ParseRequestURI(rawurl)
	if err != nil {
		return false //Couldn't even parse the rawurl
	}
	if len(url.Scheme) == 0 {
		return false //No Scheme found
	}
	return true
}
