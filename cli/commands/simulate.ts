import { type Command } from 'commander'
import { CliError, ExitCode } from '../errors'

export function registerSimulateCommand(program: Command) {
  program
    .command('simulate')
    .description('run simulated agents against a portal (options: pixelfleet simulate --help)')
    // The simulator owns its options and help; everything after `simulate` is handed over as is.
    .allowUnknownOption()
    .helpOption(false)
    .passThroughOptions()
    .argument('[options...]', 'simulator options')
    .action(async (args: string[]) => {
      // Loaded on demand: the simulator is heavier than every other command and optional in an install.
      const { runSimulatorCli } = await import('../../simulator/cli').catch((error: Error) => {
        throw new CliError(`The simulator is not available in this installation (${error.message})`, ExitCode.unexpected, 'cli/simulator-missing')
      })
      process.exitCode = await runSimulatorCli(args)
    })
}
