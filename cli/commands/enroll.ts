import { type Command } from 'commander'
import { z } from 'zod'
import { enrollmentCodeProblem, formatEnrollmentCode } from '../../app/domain/agents/enrollment-code'
import { resolveContext, parseOptions } from '../context'
import { usageError } from '../errors'
import { emit } from '../output'

type Lookup = { applicationCode: string; applicationCreated: string; agentProduct: string; agentName: string }
type Enrolled = { organizationId: string; projectId: string; agentId: string; organizationCreated: boolean; systemsAssigned: number }

const enrollOptions = z
  .object({
    org: z.string().min(1).optional(),
    newOrg: z.string().min(1, '--new-org needs a name').optional(),
    project: z.string().min(1).optional(),
    newProject: z.string().optional(),
  })
  .refine((o) => Boolean(o.org) !== Boolean(o.newOrg), 'Give exactly one of --org <id|name> or --new-org <name>')
  .refine((o) => !(o.project && o.newProject !== undefined), 'Give either --project or --new-project, not both')
  .refine((o) => o.project || o.newProject !== undefined, 'Please specify a project (--project <id|name> or --new-project <name>)')

/** JSON form (pure). */
export const enrollJson = (lookup: Lookup, result: Enrolled) => ({
  agentId: result.agentId,
  agentName: lookup.agentName,
  agentProduct: lookup.agentProduct,
  organizationId: result.organizationId,
  organizationCreated: result.organizationCreated,
  projectId: result.projectId,
  systemsAssigned: result.systemsAssigned,
})

export function registerEnrollCommand(program: Command) {
  program
    .command('enroll')
    .description('enroll the agent showing <code> into an organization and project')
    .argument('<code>', 'enrollment code shown by the agent (XXX-XX-XXX)')
    .option('--org <id|name>', 'one of your organizations')
    .option('--new-org <name>', 'create an organization with this name')
    .option('--project <id|name>', 'a project of that organization')
    .option('--new-project <name>', 'create a project with this name')
    .action(async (code: string, raw, command: Command) => {
      const ctx = resolveContext(command)
      const problem = enrollmentCodeProblem(code)
      if (problem) throw usageError(problem)
      const options = parseOptions(enrollOptions, raw)
      const lookup = await ctx.client.call<Lookup>('agent/applicationLookup', { applicationCode: code })
      const result = await ctx.client.call<Enrolled>('agent/enroll', {
        applicationCode: code,
        id: options.org,
        organizationName: options.newOrg,
        projectId: options.project,
        projectName: options.newProject,
      })
      emit(ctx, enrollJson(lookup, result), () =>
        [
          `Enrolled ${lookup.agentName || 'Unknown Name'} (${lookup.agentProduct || 'Unknown Product'}) with code ${formatEnrollmentCode(code)}`,
          `  organization ${result.organizationId}${result.organizationCreated ? ' (created)' : ''}`,
          `  project      ${result.projectId}, ${result.systemsAssigned} system(s) assigned`,
          `  ${ctx.url}/organization/${result.organizationId}`,
        ].join('\n'),
      )
    })
}
