import { type Command } from 'commander'
import { z } from 'zod'
import { NOTE_COLORS } from '../../app/domain/notes/note-colors'
import { orgOption, resolveOrg, withContext } from '../context'
import { usageError } from '../errors'
import { printDone, printRows } from '../output'

type Note = { id: string; content: string; color: string; resourcePath: string; resourceDisplayName: string; authorName: string; archived: boolean; updated: string }

const withOrg = z.object({ org: orgOption })
const color = z.enum(NOTE_COLORS, { errorMap: () => ({ message: `--color must be one of ${NOTE_COLORS.join(', ')}` }) }).optional()

/** `pixelfleet notes ...` (note/* calls): sticky notes attached to pages of an organization. */
export function registerNotesCommands(program: Command) {
  const notes = program.command('notes').description('notes on pages of an organization')

  notes
    .command('list')
    .description("the organization's notes (--page: only those of one page)")
    .requiredOption('--org <id|name>', 'organization')
    .option('--page <path>', 'page path, e.g. /organization/<id>/agents')
    .option('--archived', 'include archived notes')
    .action(
      withContext(withOrg.extend({ page: z.string().optional(), archived: z.boolean().default(false) }), async (ctx, o) => {
        const organization = await resolveOrg(ctx, o.org)
        const result = await ctx.client.call<{ notes: Note[] }>('note/list', { organization, resourcePath: o.page })
        const list = result.notes.filter((n) => o.archived || !n.archived)
        printRows(ctx, { organizationId: organization, notes: list }, list, [
          ['id', (n) => n.id],
          ['page', (n) => n.resourceDisplayName || n.resourcePath],
          ['color', (n) => n.color],
          ['author', (n) => n.authorName],
          ['archived', (n) => (n.archived ? 'yes' : '')],
          ['content', (n) => n.content],
        ], 'No notes.')
      }),
    )

  notes
    .command('create')
    .description('write a note on a page of the organization')
    .argument('<content>', 'the text')
    .requiredOption('--org <id|name>', 'organization')
    .option('--page <path>', 'page path (default: the organization itself)')
    .option('--title <name>', "the page's display name")
    .option('--color <color>', NOTE_COLORS.join('|'))
    .action(
      withContext(withOrg.extend({ page: z.string().optional(), title: z.string().optional(), color }), async (ctx, o, [content]) => {
        const organization = await resolveOrg(ctx, o.org)
        const result = await ctx.client.call<{ note: Note }>('note/create', {
          organization,
          content,
          color: o.color,
          resourcePath: o.page ?? `/organization/${organization}`,
          resourceDisplayName: o.title,
        })
        printDone(ctx, result, `Created note ${result.note.id}`)
      }),
    )

  notes
    .command('update')
    .description("change a note's text or color")
    .argument('<noteId>', 'note id')
    .requiredOption('--org <id|name>', 'organization')
    .option('--content <text>', 'new text')
    .option('--color <color>', NOTE_COLORS.join('|'))
    .action(
      withContext(withOrg.extend({ content: z.string().optional(), color }), async (ctx, o, [note]) => {
        if (o.content === undefined && o.color === undefined) throw usageError('Give --content and/or --color')
        const organization = await resolveOrg(ctx, o.org)
        const result = await ctx.client.call<{ note: Note }>('note/update', { organization, note, content: o.content, color: o.color })
        printDone(ctx, result, `Updated note ${note}`)
      }),
    )

  for (const [name, call] of [
    ['archive', 'note/archive'],
    ['unarchive', 'note/unarchive'],
    ['delete', 'note/delete'],
  ] as const) {
    notes
      .command(name)
      .description(`${name} a note`)
      .argument('<noteId>', 'note id')
      .requiredOption('--org <id|name>', 'organization')
      .action(
        withContext(withOrg, async (ctx, o, [note]) => {
          const organization = await resolveOrg(ctx, o.org)
          const result = await ctx.client.call(call, { organization, note })
          printDone(ctx, { noteId: note, ...result }, `Note ${note}: ${name}d`)
        }),
      )
  }
}
