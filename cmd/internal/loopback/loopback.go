// Package loopback is what stichbuch's commands mean by "this machine
// only": the profiler of `stichbuch serve` listens only there, and the load
// tool of `stichbuch-bench` drives only a service there.
package loopback

import "net"

// Host reports whether host, a name or an IP address without a port, is
// this machine's loopback: "localhost", 127.0.0.0/8 or ::1. Any other name
// is not, whatever a resolver would say.
func Host(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
