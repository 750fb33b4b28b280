/**
 * Metrics on prom-client's default registry (served at /metrics, server/metrics.ts). A module can
 * be evaluated twice in one process (the server build and the sources loaded by tsx both hold the
 * domain code), and prom-client refuses a second metric of the same name: these return the first.
 */
import { Counter, Gauge, Histogram, register, type CounterConfiguration, type GaugeConfiguration, type HistogramConfiguration } from 'prom-client'

export function counter<L extends string>(config: CounterConfiguration<L>): Counter<L> {
  return (register.getSingleMetric(config.name) as Counter<L> | undefined) ?? new Counter(config)
}

export function gauge<L extends string>(config: GaugeConfiguration<L>): Gauge<L> {
  return (register.getSingleMetric(config.name) as Gauge<L> | undefined) ?? new Gauge(config)
}

export function histogram<L extends string>(config: HistogramConfiguration<L>): Histogram<L> {
  return (register.getSingleMetric(config.name) as Histogram<L> | undefined) ?? new Histogram(config)
}
