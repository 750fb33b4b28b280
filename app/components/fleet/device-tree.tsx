import { ChevronDown, ChevronRight, Cpu, Fan, Grid3x3, HardDrive, Monitor, Network, Plug, Projector, Server } from 'lucide-react'
import { useState } from 'react'
import { componentLabel } from '~/domain/fleet/labels'
import type { DeviceNode } from '~/domain/fleet/project.server'

export const COMPONENT_ICONS: Record<string, typeof Cpu> = {
  display: Monitor,
  matrix: Grid3x3,
  other: HardDrive,
  pdu: Plug,
  processor: Cpu,
  projector: Projector,
  receiver: Fan,
  switch: Network,
  system: Server,
}

export function ComponentIcon({ component, className }: { component: string; className?: string }) {
  const Icon = COMPONENT_ICONS[component] ?? HardDrive
  return <Icon className={className ?? 'size-3.5 text-muted-foreground'} aria-hidden />
}

/** A parent with more children than this starts collapsed (a processor's 50 tiles would bury the other devices). */
const OPEN_CHILDREN_LIMIT = 12

/** Devices nested under their parent; nodes with a few children start open down to `openDepth`. */
export function DeviceTree({ nodes, openDepth = 1 }: { nodes: DeviceNode[]; openDepth?: number }) {
  if (!nodes.length) return <p className="text-xs text-muted-foreground">No devices reported.</p>
  return (
    <ul role="tree" className="text-[13px]">
      {nodes.map((n) => (
        <DeviceTreeNode key={n.id} node={n} depth={0} openDepth={openDepth} />
      ))}
    </ul>
  )
}

/** '18 tiles' when a parent's children share one kind, else '5 devices'. */
function childrenSummary({ children }: DeviceNode) {
  const kind = children[0].component
  const label = children.every((c) => c.component === kind) ? componentLabel(kind, children.length) : children.length === 1 ? 'Device' : 'Devices'
  return `${children.length} ${label.toLowerCase()}`
}

function DeviceTreeNode({ node, depth, openDepth }: { node: DeviceNode; depth: number; openDepth: number }) {
  const [open, setOpen] = useState(depth < openDepth && node.children.length <= OPEN_CHILDREN_LIMIT)
  const hasChildren = node.children.length > 0
  const version = [node.versionSoftware && `SW ${node.versionSoftware}`, node.versionFirmware && `FW ${node.versionFirmware}`].filter(Boolean).join(' · ')
  return (
    <li role="treeitem" aria-expanded={hasChildren ? open : undefined} aria-selected={false}>
      <div className="flex items-center gap-1.5 rounded py-0.5 hover:bg-muted/40" style={{ paddingLeft: depth * 18 }}>
        {hasChildren ? (
          <button type="button" aria-label={open ? `Collapse ${node.name}` : `Expand ${node.name}`} onClick={() => setOpen(!open)} className="rounded p-0.5 hover:bg-accent">
            {open ? <ChevronDown className="size-3.5" /> : <ChevronRight className="size-3.5" />}
          </button>
        ) : (
          <span className="w-[18px]" />
        )}
        <ComponentIcon component={node.component} />
        <span className="font-medium">{node.name}</span>
        <span className="text-xs text-muted-foreground">
          {componentLabel(node.component)}
          {node.product ? ` · ${node.product}` : ''}
          {node.count > 1 ? ` × ${node.count}` : ''}
        </span>
        {hasChildren ? <span className="text-xs text-muted-foreground">({childrenSummary(node)})</span> : null}
        {version ? <span className="ml-auto pr-2 font-mono text-[11px] text-muted-foreground">{version}</span> : null}
      </div>
      {hasChildren && open ? (
        <ul role="group">
          {node.children.map((c) => (
            <DeviceTreeNode key={c.id} node={c} depth={depth + 1} openDepth={openDepth} />
          ))}
        </ul>
      ) : null}
    </li>
  )
}
