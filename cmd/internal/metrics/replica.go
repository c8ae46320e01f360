package metrics

import "github.com/prometheus/client_golang/prometheus"

// ReplicaReads registers stichbuch_replica_reads_total and returns what
// counts one statistics read a replica answered (serve with
// STICHBUCH_READ_DATABASE_URL); reads that fell back to the primary are
// not counted.
func (m *Metrics) ReplicaReads() func() {
	c := prometheus.NewCounter(prometheus.CounterOpts{
		Name: "stichbuch_replica_reads_total",
		Help: "Statistics reads answered by a replica (STICHBUCH_READ_DATABASE_URL) instead of the primary.",
	})
	m.reg.MustRegister(c)
	return c.Inc
}
