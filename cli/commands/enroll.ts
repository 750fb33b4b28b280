import fs from 'node:fs'
import { type Command } from 'commander'
import { z } from 'zod'
import {
  ENROLLMENT_CODE_ALPHABET,
  ENROLLMENT_CODE_LENGTH,
  ENROLLMENT_CODE_PLACEHOLDER,
  enrollmentCodeProblem,
  formatEnrollmentCode,
  normalizeEnrollmentCode,
} from '../../app/domain/agents/enrollment-code'
import { resolveContext, parseOptions, resolveOrg, type CliContext } from '../context'
import { CliError, toCliError, usageError } from '../errors'
import { emit, printRows } from '../output'
import { startProgress } from '../progress'

type Lookup = { applicationCode: string; applicationCreated: string; agentProduct: string; agentName: string }
type Enrolled = { organizationId: string; projectId: string; agentId: string; organizationCreated: boolean; systemsAssigned: number }

const enrollOptions = z
  .object({
    org: z.string().min(1).optional(),
    newOrg: z.string().min(1, '--new-org needs a name').optional(),
    project: z.string().min(1).optional(),
    newProject: z.string().optional(),
    from: z.string().min(1, '--from needs a file').optional(),
  })
  .refine((o) => Boolean(o.org) !== Boolean(o.newOrg), 'Give exactly one of --org <id|name> or --new-org <name>')
  .refine((o) => !(o.project && o.newProject !== undefined), 'Give either --project or --new-project, not both')

type EnrollOptions = z.output<typeof enrollOptions>

const alphabet = new Set(ENROLLMENT_CODE_ALPHABET)

/**
 * Why a typed code cannot be a code at all (pure), or null. Codes are 8 characters of the agent's
 * alphabet; anything else is a typing mistake (usage, exit 2), not an unknown code (exit 5).
 */
export function malformedCode(input: string): string | null {
  const problem = enrollmentCodeProblem(input)
  if (problem) return problem
  const code = normalizeEnrollmentCode(input)
  if (code.length !== ENROLLMENT_CODE_LENGTH || [...code].some((c) => !alphabet.has(c))) {
    return `Invalid enrollment code '${input}': expected ${ENROLLMENT_CODE_PLACEHOLDER}, ${ENROLLMENT_CODE_LENGTH} letters and digits as the agent shows them`
  }
  return null
}

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

export type CodeLine = { line: number; code: string; project?: string }

/**
 * The codes of a bulk file (pure): one per line, or CSV whose first column is the code and an
 * optional second column the project (id or name) for that code. A header line starting with
 * 'code' and blank or '#' lines are skipped. Malformed codes are a usage error naming their lines.
 */
export function parseCodesFile(text: string): CodeLine[] {
  const lines: CodeLine[] = []
  const bad: string[] = []
  text.split(/\r?\n/).forEach((raw, i) => {
    const cells = raw.split(',').map((c) => c.trim().replace(/^"(.*)"$/, '$1'))
    const code = cells[0] ?? ''
    if (code === '' || code.startsWith('#') || (i === 0 && /^(enrollment )?code$/i.test(code))) return
    const problem = malformedCode(code)
    if (problem) bad.push(`line ${i + 1}: ${problem}`)
    else lines.push({ line: i + 1, code, ...(cells[1] ? { project: cells[1] } : {}) })
  })
  if (bad.length) throw usageError(`Nothing enrolled; fix the file first:\n  ${bad.join('\n  ')}`)
  if (lines.length === 0) throw usageError('The file holds no enrollment codes')
  return lines
}

async function enrollOne(ctx: CliContext, code: string, o: EnrollOptions, project: { projectId?: string; projectName?: string }) {
  const lookup = await ctx.client.call<Lookup>('agent/applicationLookup', { applicationCode: code })
  const result = await ctx.client.call<Enrolled>('agent/enroll', { applicationCode: code, id: o.org, organizationName: o.newOrg, ...project })
  return { lookup, result }
}

type BulkRow = { line: number; code: string; ok: boolean; agentId?: string; agentName?: string; projectId?: string; error?: { code: string; message: string; exitCode: number } }

/** `enroll --from codes.csv`: every code in turn, a progress bar on a terminal, one result row per code. */
async function enrollBulk(ctx: CliContext, o: EnrollOptions, file: string) {
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (error) {
    throw usageError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  const codes = parseCodesFile(text)
  if (!o.project && o.newProject === undefined && codes.some((c) => !c.project)) throw usageError('Please specify a project (--project, --new-project, or a project column in the file)')
  if (o.org) o = { ...o, org: await resolveOrg(ctx, o.org) }
  const progress = startProgress(codes.length, 'Enrolling')
  const rows: BulkRow[] = []
  // A new organization is created by the first code only; the others join it.
  let org = o.org
  for (const { line, code, project } of codes) {
    try {
      const target = project ? { projectId: project } : o.project ? { projectId: o.project } : { projectName: o.newProject }
      const { lookup, result } = await enrollOne(ctx, code, { ...o, org, newOrg: org ? undefined : o.newOrg }, target)
      org = result.organizationId
      // --new-project makes the project once; later codes enroll into it.
      if (!project && !o.project) o = { ...o, project: result.projectId, newProject: undefined }
      rows.push({ line, code: formatEnrollmentCode(code), ok: true, agentId: result.agentId, agentName: lookup.agentName, projectId: result.projectId })
    } catch (error) {
      const failure = toCliError(error)
      rows.push({ line, code: formatEnrollmentCode(code), ok: false, error: { code: failure.code, message: failure.message, exitCode: failure.exitCode } })
    }
    progress.tick()
  }
  progress.stop()
  const failed = rows.filter((r) => !r.ok)
  printRows(ctx, { organizationId: org ?? null, enrolled: rows.length - failed.length, failed: failed.length, results: rows }, rows, [
    ['line', (r) => r.line],
    ['code', (r) => r.code],
    ['result', (r) => (r.ok ? 'enrolled' : 'failed')],
    ['agent', (r) => (r.ok ? `${r.agentName || 'Unknown Name'} (${r.agentId})` : '')],
    ['project / error', (r) => (r.ok ? r.projectId : r.error?.message)],
  ])
  if (failed.length) {
    const first = failed[0].error!
    throw new CliError(`${failed.length} of ${rows.length} code(s) failed; the first: ${first.message}`, first.exitCode as CliError['exitCode'], first.code)
  }
}

export function registerEnrollCommand(program: Command) {
  program
    .command('enroll')
    .description('enroll the agent showing <code> (or every code of --from <file>) into an organization and project')
    .argument('[code]', `enrollment code shown by the agent (${ENROLLMENT_CODE_PLACEHOLDER})`)
    .option('--org <id|name>', 'one of your organizations')
    .option('--new-org <name>', 'create an organization with this name')
    .option('--project <id|name>', 'a project of that organization')
    .option('--new-project <name>', 'create a project with this name')
    .option('--from <file>', 'enroll every code of a file: one per line, or CSV with code[,project] columns')
    .action(async (code: string | undefined, raw, command: Command) => {
      const ctx = resolveContext(command)
      if (code !== undefined && raw.from) throw usageError('Give a code or --from <file>, not both')
      if (code === undefined && !raw.from) throw usageError('Give an enrollment code or --from <file>')
      if (code !== undefined) {
        const problem = malformedCode(code)
        if (problem) throw usageError(problem)
      }
      const options = parseOptions(enrollOptions, raw)
      if (options.from) return enrollBulk(ctx, options, options.from)
      if (!options.project && options.newProject === undefined) throw usageError('Please specify a project (--project <id|name> or --new-project <name>)')
      if (options.org) options.org = await resolveOrg(ctx, options.org)
      const { lookup, result } = await enrollOne(ctx, code!, options, { projectId: options.project, projectName: options.newProject })
      emit(ctx, enrollJson(lookup, result), () =>
        [
          `Enrolled ${lookup.agentName || 'Unknown Name'} (${lookup.agentProduct || 'Unknown Product'}) with code ${formatEnrollmentCode(code!)}`,
          `  organization ${result.organizationId}${result.organizationCreated ? ' (created)' : ''}`,
          `  project      ${result.projectId}, ${result.systemsAssigned} system(s) assigned`,
          `  ${ctx.url}/organization/${result.organizationId}`,
        ].join('\n'),
      )
    })
}
