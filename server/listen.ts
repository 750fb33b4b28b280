import { type Server } from 'node:net'

export class PortInUseError extends Error {}

/** Listens, turning "address in use" into one clear line naming the variable to change. */
export function listen(server: Server, port: number, host: string, variable: string) {
  return new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') reject(new PortInUseError(`Port ${port} is already in use: set ${variable} to a free port (for example ${variable}=${port + 1}).`))
      else if (err.code === 'EACCES') reject(new PortInUseError(`Port ${port} needs elevated privileges: set ${variable} to a port above 1023.`))
      else reject(err)
    }
    server.once('error', onError)
    server.once('listening', () => {
      server.removeListener('error', onError)
      resolve()
    })
    server.listen(port, host)
  })
}
