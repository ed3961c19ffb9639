package reuse

import (
	"net"
	"net/url"
	"strings"

	"golang.org/x/net/idna"
)

// Host returns the host of a web page's URL, as the summary groups pages:
// lower-case, without a port, a trailing dot or a leading "www.", an
// internationalised name in Unicode ("xn--bcher-kva.example" →
// "bücher.example"). A URL without a scheme ("example.org/a") is read as
// if it had one, so a bare host is its own host. An unparsable URL gives
// "".
func Host(rawURL string) string {
	s := strings.TrimSpace(rawURL)
	if !strings.Contains(s, "://") {
		s = "http://" + strings.TrimPrefix(s, "//")
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	h := u.Hostname()
	if net.ParseIP(h) != nil {
		return h
	}
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	if uh, err := idna.Display.ToUnicode(h); err == nil {
		h = strings.ToLower(uh)
	}
	return strings.TrimPrefix(h, "www.")
}
