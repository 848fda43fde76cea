import type { Command } from 'commander';
import { configFrom, withDataOptions, withJson } from '../options.js';
import { CliError, exitCodes, printJson, printLine } from '../output.js';

interface DataOptions {
  data?: string;
  databaseUrl?: string;
  json?: boolean;
}

/**
 * Opens the data folder for writing and runs `work` on the account named `username`, as the command line (the
 * operator's one-step path: docs/access.md, it needs the server's shell and data folder); an unknown name is a usage
 * error.
 */
async function withNamedUser<T>(
  options: DataOptions,
  username: string,
  work: (
    accounts: import('../../services/accounts/accounts.js').AccountService,
    user: import('../../store/repositories/users.js').User,
    caller: typeof import('../../access/caller.js').commandLine,
  ) => Promise<T>,
): Promise<T> {
  const { withWritableData } = await import('../data-session.js');
  const { servicesOf } = await import('../../services/index.js');
  const { commandLine } = await import('../../access/caller.js');
  return withWritableData(configFrom(options), async (ctx) => {
    const accounts = servicesOf(ctx).accounts;
    const user = await accounts.userByName(username);
    if (!user) throw new CliError(`no user ${username} (athar users list shows them)`, exitCodes.usage);
    return work(accounts, user, commandLine);
  });
}

/** `athar users add|list`: accounts from the command line, for the operator of the machine. */
export function registerUsers(program: Command): void {
  const users = program
    .command('users')
    .description(
      'user accounts: add one, list them, end a sign-in back-off, reset a password, change a role',
    );

  withJson(withDataOptions(users.command('add')))
    .description('create a user with a one-time password (printed once; changed at first sign-in)')
    .argument('<username>', '2–64 lower-case letters, digits, dot, dash or underscore')
    .requiredOption('--role <role>', 'admin, documenter, reviewer, liaison or investigator')
    .option('--display-name <name>', 'how the interface names them')
    .option('--totp-required', 'require TOTP (default for admin and investigator)')
    .option('--no-totp-required', 'do not require TOTP')
    .action(
      async (
        username: string,
        options: DataOptions & { role: string; displayName?: string; totpRequired?: boolean },
      ) => {
        const { usernamePattern, usernameRule } = await import('../../access/account-rules.js');
        const { isRole, roles } = await import('../../access/roles.js');
        if (!usernamePattern.test(username)) throw new CliError(`username: ${usernameRule}`, exitCodes.usage);
        if (!isRole(options.role)) {
          throw new CliError(
            `--role must be one of ${roles.join(', ')} (got ${options.role})`,
            exitCodes.usage,
          );
        }
        const { withWritableData } = await import('../data-session.js');
        const { servicesOf } = await import('../../services/index.js');
        const { commandLine } = await import('../../access/caller.js');
        const created = await withWritableData(configFrom(options), (ctx) =>
          servicesOf(ctx).accounts.createUser(
            {
              username,
              role: options.role,
              ...(options.displayName ? { displayName: options.displayName } : {}),
              ...(options.totpRequired !== undefined ? { totpRequired: options.totpRequired } : {}),
            },
            commandLine,
          ),
        );
        if (options.json) {
          return printJson({ user: created.user, password: created.password });
        }
        printLine(`user ${created.user.username} (${created.user.role}) created.`);
        printLine(`  one-time password, shown once: ${created.password}`);
        printLine(
          `  they choose their own at first sign-in${created.user.totpRequired ? ' and set up TOTP' : ''}.`,
        );
      },
    );

  withJson(withDataOptions(users.command('list')))
    .description('list user accounts (never passwords)')
    .action(async (options: DataOptions) => {
      const { openContext } = await import('../../services/context.js');
      const { servicesOf } = await import('../../services/index.js');
      const ctx = await openContext(configFrom(options));
      let list: Awaited<ReturnType<ReturnType<typeof servicesOf>['accounts']['listUsers']>>;
      try {
        list = await servicesOf(ctx).accounts.listUsers();
      } finally {
        await ctx.close();
      }
      if (options.json) return printJson({ items: list });
      for (const u of list) {
        const flags = [
          u.disabled ? 'disabled' : '',
          u.totpEnrolled ? 'totp' : u.totpRequired ? 'totp pending' : '',
          u.mustChangePassword ? 'must change password' : '',
        ].filter(Boolean);
        printLine(`${u.username.padEnd(24)} ${u.role.padEnd(13)} ${flags.join(', ')}`);
      }
    });

  withJson(withDataOptions(users.command('unlock')))
    .description(
      'end the sign-in back-off of a username (known or not), e.g. an admin held back by someone guessing',
    )
    .argument('<username>', 'the username as it is typed at sign-in')
    .option('--address <ip>', 'also end the back-off of this client address')
    .option('--all-addresses', 'also end the back-off of every client address')
    .action(async (username: string, options: DataOptions & { address?: string; allAddresses?: boolean }) => {
      const { withWritableData } = await import('../data-session.js');
      const { servicesOf } = await import('../../services/index.js');
      const { commandLine } = await import('../../access/caller.js');
      const done = await withWritableData(configFrom(options), (ctx) =>
        servicesOf(ctx).accounts.unlock(
          username,
          {
            ...(options.address ? { address: options.address } : {}),
            ...(options.allAddresses ? { allAddresses: true } : {}),
          },
          commandLine,
        ),
      );
      if (options.json)
        return printJson({ username, known: done.userId !== undefined, cleared: done.cleared });
      printLine(
        done.cleared > 0
          ? `${username} may sign in again at once (${done.cleared} back-off ${done.cleared === 1 ? 'entry' : 'entries'} cleared).`
          : `${username} was not held back; nothing to clear.`,
      );
    });

  withJson(withDataOptions(users.command('reset-password')))
    .description(
      'give a user a new one-time password (printed once); ends their sessions, tokens and sign-in back-off',
    )
    .argument('<username>', 'an existing username')
    .option('--reset-totp', 'also remove their authenticator, to be enrolled again (a lost phone)')
    .action(async (username: string, options: DataOptions & { resetTotp?: boolean }) => {
      const done = await withNamedUser(options, username, async (accounts, user, caller) => {
        const done = await accounts.resetPassword(user.id, { resetTotp: options.resetTotp === true }, caller);
        if (!('password' in done)) throw new CliError('the reset was not carried out', exitCodes.failure);
        return { user, password: done.password };
      });
      if (options.json) return printJson({ user: done.user, password: done.password });
      printLine(`${done.user.username}: new one-time password, shown once: ${done.password}`);
      printLine(
        `  they choose their own at next sign-in${options.resetTotp ? ' and set up TOTP again' : ''}.`,
      );
    });

  withJson(withDataOptions(users.command('set-role')))
    .description(
      "change a user's role in one step (their sessions and tokens end); the API asks a second admin for a role that newly reads contacts or originals",
    )
    .argument('<username>', 'an existing username')
    .argument('<role>', 'admin, documenter, reviewer, liaison or investigator')
    .action(async (username: string, role: string, options: DataOptions) => {
      const { isRole, roles } = await import('../../access/roles.js');
      if (!isRole(role))
        throw new CliError(`role must be one of ${roles.join(', ')} (got ${role})`, exitCodes.usage);
      const done = await withNamedUser(options, username, async (accounts, user, caller) => {
        const done = await accounts.updateUser(user.id, { role }, caller);
        if (!('after' in done)) throw new CliError('the role change was not carried out', exitCodes.failure);
        return done;
      });
      if (options.json) return printJson({ user: done.after });
      printLine(
        done.before.role === done.after.role
          ? `${username} is already ${role}; nothing changed.`
          : `${username}: ${done.before.role} → ${done.after.role}; their sessions and tokens ended.`,
      );
    });
}
