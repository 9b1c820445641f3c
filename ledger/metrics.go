package ledger

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// nodeMetrics are the node's own instruments; the gauges read the node's
// state when collected.
type nodeMetrics struct {
	commits        *prometheus.CounterVec
	committed      prometheus.Counter // commits{outcome="committed"}, resolved once
	failed         prometheus.Counter // commits{outcome="failed"}
	commitLatency  prometheus.Histogram
	interpretation prometheus.Histogram
}

func newNodeMetrics() *nodeMetrics {
	m := &nodeMetrics{
		commits: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "ledgernode_commits_total",
			Help: "Write operations handed to the committer, by outcome (committed or failed).",
		}, []string{"outcome"}),
		commitLatency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "ledgernode_commit_duration_seconds",
			Help:    "Time from handing a write operation to the committer until it is committed or failed (queueing and group commit included).",
			Buckets: prometheus.ExponentialBuckets(0.0001, 2.5, 12),
		}),
		interpretation: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "ledgernode_interpretation_duration_seconds",
			Help: "Time the Daml engine spends interpreting one submission's commands, outside the committer " +
				"(one observation per interpretation, re-interpretations for the ledger time included).",
			Buckets: prometheus.ExponentialBuckets(0.0001, 2.5, 12),
		}),
	}
	// Both outcomes exist from the start (reported as 0 before the first
	// commit), and a commit does not look its counter up by label.
	m.committed, m.failed = m.commits.WithLabelValues("committed"), m.commits.WithLabelValues("failed")
	return m
}

func (m *nodeMetrics) observeSubmit(d time.Duration, failed bool) {
	if failed {
		m.failed.Inc()
	} else {
		m.committed.Inc()
	}
	m.commitLatency.Observe(d.Seconds())
}

func (m *nodeMetrics) observeInterpretation(d time.Duration) {
	m.interpretation.Observe(d.Seconds())
}

var (
	descLedgerEnd = prometheus.NewDesc("ledgernode_ledger_end",
		"The ledger end: the last published offset (0 on an empty ledger).", nil, nil)
	descBadgerSize = prometheus.NewDesc("ledgernode_badger_size_bytes",
		"Bytes the Badger store's files take on disk, read at each scrape, by part (lsm: the LSM tree's tables "+
			"and its memtables' write-ahead logs, vlog: the value log); 0 for an in-memory node.", []string{"part"}, nil)
)

// Collector returns the node's Prometheus metrics: committed and failed
// write operations and their latency, the ledger end, the store's sizes,
// and the interpretation-time histogram. Register it in a
// prometheus.Registry (httpadapter.NewMetrics does); one collector per
// node: the metric names do not say which node they are about.
func (n *Node) Collector() prometheus.Collector { return nodeCollector{n} }

type nodeCollector struct{ n *Node }

// Describe implements prometheus.Collector.
func (c nodeCollector) Describe(ch chan<- *prometheus.Desc) {
	m := c.n.met
	m.commits.Describe(ch)
	m.commitLatency.Describe(ch)
	m.interpretation.Describe(ch)
	ch <- descLedgerEnd
	ch <- descBadgerSize
}

// Collect implements prometheus.Collector.
func (c nodeCollector) Collect(ch chan<- prometheus.Metric) {
	m := c.n.met
	m.commits.Collect(ch)
	m.commitLatency.Collect(ch)
	m.interpretation.Collect(ch)
	ch <- prometheus.MustNewConstMetric(descLedgerEnd, prometheus.GaugeValue, float64(c.n.st.LedgerEnd()))
	lsm, vlog := c.n.st.Sizes()
	ch <- prometheus.MustNewConstMetric(descBadgerSize, prometheus.GaugeValue, float64(lsm), "lsm")
	ch <- prometheus.MustNewConstMetric(descBadgerSize, prometheus.GaugeValue, float64(vlog), "vlog")
}
