import { ChevronDown, ChevronRight } from 'lucide-react'
import { memo, useState } from 'react'
import { componentLabel } from '~/domain/fleet/labels'
import type { DeviceNode } from '~/domain/fleet/project.server'
import { SpriteComponentIcon } from './component-icon-sprite'

/** A parent with more children than this starts collapsed (a processor's 50 tiles would bury the other devices). */
const OPEN_CHILDREN_LIMIT = 12

type DeviceTreeProps = { nodes: DeviceNode[]; openDepth?: number }

/**
 * Devices nested under their parent; nodes with a few children start open down to `openDepth`.
 * Icons come from <ComponentIconSprite>, which the page renders once (a tree of 50 devices drew
 * 50 inline SVGs). Memoized by content: a live reload answers new objects for unchanged devices.
 */
export const DeviceTree = memo(function DeviceTree({ nodes, openDepth = 1 }: DeviceTreeProps) {
  if (!nodes.length) return <p className="text-xs text-muted-foreground">No devices reported.</p>
  return (
    <ul role="tree" className="text-[13px]">
      {nodes.map((n) => (
        <DeviceTreeNode key={n.id} node={n} depth={0} openDepth={openDepth} />
      ))}
    </ul>
  )
}, (a: DeviceTreeProps, b: DeviceTreeProps) => a.openDepth === b.openDepth && (a.nodes === b.nodes || JSON.stringify(a.nodes) === JSON.stringify(b.nodes)))

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
        <SpriteComponentIcon component={node.component} />
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
