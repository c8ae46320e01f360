package main

// How the phones at the table reach the service: the addresses serve
// prints when it starts, and the QR code of the app's address in the
// terminal.

import (
	"fmt"
	"io"
	"net"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"rsc.io/qr"

	"github.com/stichbuch/stichbuch/cmd/internal/loopback"
)

// machineAddrs are this machine's addresses a phone could use: those of
// interfaces that are up, neither loopback nor link-local (a browser
// cannot open an IPv6 link-local address without its zone), leaving out
// the bridges of containers and virtual machines. IPv4 first.
func machineAddrs() []netip.Addr {
	ifaces, err := net.Interfaces()
	if err != nil {
		return nil
	}
	var out []netip.Addr
	for _, ifc := range ifaces {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagLoopback != 0 || virtualInterface(ifc.Name) {
			continue
		}
		addrs, err := ifc.Addrs()
		if err != nil {
			continue
		}
		for _, a := range addrs {
			ipnet, ok := a.(*net.IPNet)
			if !ok {
				continue
			}
			ip, ok := netip.AddrFromSlice(ipnet.IP)
			if ok {
				out = append(out, ip.Unmap())
			}
		}
	}
	return usable(out)
}

// usable keeps the addresses a phone can open, IPv4 before IPv6, each once.
func usable(addrs []netip.Addr) []netip.Addr {
	var out []netip.Addr
	for _, ip := range addrs {
		if ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsUnspecified() || ip.IsMulticast() || slices.Contains(out, ip) {
			continue
		}
		out = append(out, ip)
	}
	slices.SortStableFunc(out, func(a, b netip.Addr) int {
		if a.Is4() == b.Is4() {
			return 0
		}
		if a.Is4() {
			return -1
		}
		return 1
	})
	return out
}

func virtualInterface(name string) bool {
	for _, prefix := range []string{"docker", "br-", "veth", "virbr", "vboxnet", "vmnet", "cni", "flannel", "podman", "lxc", "lxd"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// listenURLs are the URLs of a listener on addr: for a wildcard host
// ("0.0.0.0", "::", "") one per address of the machine, else the
// listener's own address. beyond reports whether phones can reach it at
// all (it listens beyond loopback).
func listenURLs(scheme string, addr net.Addr, machine []netip.Addr) (urls []string, beyond bool) {
	ap, err := netip.ParseAddrPort(addr.String())
	if err != nil {
		return []string{scheme + "://" + addr.String()}, false
	}
	port := strconv.Itoa(int(ap.Port()))
	ip := ap.Addr().Unmap()
	if !ip.IsUnspecified() {
		return []string{urlOf(scheme, ip.String(), port)}, !ip.IsLoopback()
	}
	for _, m := range machine {
		if ip.Is4() && !m.Is4() {
			continue // an IPv4 wildcard listens on no IPv6 address
		}
		urls = append(urls, urlOf(scheme, m.String(), port))
	}
	if len(urls) == 0 {
		return []string{urlOf(scheme, "127.0.0.1", port)}, false
	}
	return urls, true
}

// urlOf is scheme://host:port, without the scheme's default port.
func urlOf(scheme, host, port string) string {
	if scheme == "https" && port == "443" || scheme == "http" && port == "80" {
		return scheme + "://" + bracket(host)
	}
	return scheme + "://" + net.JoinHostPort(host, port)
}

func bracket(host string) string {
	if strings.Contains(host, ":") {
		return "[" + host + "]"
	}
	return host
}

// reachable is what serve prints about how phones reach it.
type reachable struct {
	urls      []string // where it listens, first the one to open
	beyond    bool     // listens beyond loopback
	publicURL string   // --public-url or the certificate's domain
	https     bool     // HTTPS here or at a trusted proxy
	port      string   // the listener's port, for the hint
}

// appURL is the address a phone opens: the public one, else the first
// of the machine's.
func (r reachable) appURL() string {
	if r.publicURL != "" {
		return r.publicURL
	}
	return r.urls[0]
}

// print tells how phones reach the service: the address it listens on
// ("stichbuch listening on URL", the line scripts wait for), the others,
// and a QR code of the app's address, or, on loopback alone, how to let
// the phones in.
func (r reachable) print(w io.Writer) {
	fmt.Fprintf(w, "stichbuch listening on %s\n", r.urls[0])
	for _, u := range r.urls[1:] {
		fmt.Fprintf(w, "  also on %s\n", u)
	}
	if !r.beyond && r.publicURL == "" {
		fmt.Fprintf(w, "only this machine can open it; to let the phones at the table in (same Wi-Fi), start it with --addr 0.0.0.0:%s (for HTTPS see the README's first screen)\n", r.port)
		return
	}
	fmt.Fprintf(w, "the phones at the table open %s; scan it:\n", r.appURL())
	if code, err := terminalQR(r.appURL()); err == nil {
		io.WriteString(w, code)
	}
	if !r.https && !loopbackURL(r.appURL()) {
		fmt.Fprintln(w, "over plain HTTP a phone cannot reload the app without a connection (no service worker): for HTTPS see the README's first screen")
	}
}

func loopbackURL(u string) bool {
	host := strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://")
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return loopback.Host(strings.Trim(host, "[]"))
}

// terminalQR draws text's QR code with Unicode half blocks, two rows of
// modules to a line, light modules drawn (for the usual dark terminal)
// with a quiet zone of two modules.
func terminalQR(text string) (string, error) {
	code, err := qr.Encode(text, qr.L)
	if err != nil {
		return "", err
	}
	const quiet = 2
	n := code.Size + 2*quiet
	light := func(x, y int) bool {
		x, y = x-quiet, y-quiet
		return x < 0 || y < 0 || x >= code.Size || y >= code.Size || !code.Black(x, y)
	}
	var b strings.Builder
	for y := 0; y < n; y += 2 {
		for x := range n {
			top, bottom := light(x, y), y+1 >= n || light(x, y+1)
			switch {
			case top && bottom:
				b.WriteString("█")
			case top:
				b.WriteString("▀")
			case bottom:
				b.WriteString("▄")
			default:
				b.WriteString(" ")
			}
		}
		b.WriteString("\n")
	}
	return b.String(), nil
}
