import { type IssueReport, type SystemReport } from '../protocol'
import { type IssueRecord } from './issues'
import { type SystemSnapshot } from './system'

/** The simulator's systems in the updateClientState shape of protocol/. */
export function toSystemReports(systems: SystemSnapshot[]): SystemReport[] {
  return systems.map((system) => ({
    id: system.key,
    name: system.name,
    devices: system.devices.map((d) => ({
      id: d.key,
      component: d.component,
      product: d.product,
      serial: d.serial,
      name: d.name,
      parent: d.parent ?? null,
      versionSoftware: d.version.software ?? null,
      versionFirmware: d.version.firmware ?? null,
      properties: d.properties,
      count: 1,
    })),
    alerts: system.alerts.map(toIssueReport),
    deviations: system.deviations.map(toIssueReport),
  }))
}

function toIssueReport(issue: IssueRecord): IssueReport {
  return {
    key: issue.key,
    component: issue.component,
    device: issue.deviceKey ?? null,
    message: issue.message,
    severity: issue.severity,
    history: issue.history.map((h) => ({ timestamp: h.timestamp.toISOString(), count: h.count })),
  }
}
