// One simulated agent in its own process for bench/relay.ts: its local web UI and, with
// RELAY_URL, AGENT_ID and SECRET, its tunnel to the relay (data connections handed to the UI's
// server, or with AGENT_SPLICE=true spliced to a local connection). Prints {"webPort":N} once the tunnel is
// open; SIGINT closes it (so --cpu-prof writes its profile).
import { startAgentWebUi } from '../../simulator/web-ui'
import { SimulatedSite } from '../../simulator/site'
import { TunnelClient } from '../../simulator/tunnel'

const site = new SimulatedSite({ seed: 2, index: 2, scenario: 'mixed' })
site.tick(new Date())
const web = await startAgentWebUi(site, () => process.env.AGENT_ID)
const tunnel = new TunnelClient({ relayUrl: process.env.RELAY_URL!, agentId: process.env.AGENT_ID!, secret: process.env.SECRET!, localPort: web.port, localServer: process.env.AGENT_SPLICE === 'true' ? undefined : web.server, dataConnections: process.env.AGENT_DATA_CONNECTIONS !== 'false' })
await tunnel.start()
console.log(JSON.stringify({ webPort: web.port }))
process.once('SIGINT', () => {
  void tunnel
    .close()
    .then(() => web.close())
    .finally(() => process.exit(0))
})
