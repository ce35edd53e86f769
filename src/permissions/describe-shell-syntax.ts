/** Shell constructs toolplane does not follow ahead of time, named as people know them. */
const CONSTRUCTS: ReadonlyMap<string, string> = new Map([
  ['for_statement', 'a `for` loop'],
  ['c_style_for_statement', 'a `for ((…))` loop'],
  ['while_statement', 'a `while` or `until` loop'],
  ['if_statement', 'an `if` statement'],
  ['case_statement', 'a `case` statement'],
  ['function_definition', 'a function definition'],
  ['test_command', 'a `[[ … ]]` test'],
  ['arithmetic_expansion', 'an arithmetic expansion `$(( … ))`'],
  ['process_substitution', 'a process substitution `<( … )`'],
]);

/**
 * Why a command needs a person: a shell construct toolplane cannot check ahead, in words (`a `for`
 * loop, which toolplane cannot check ahead`) rather than the grammar's node name. Read by people
 * in the permission dialog and by the model in a refusal alike.
 */
export function describeShellSyntax(nodeType: string): string {
  const construct = CONSTRUCTS.get(nodeType);
  if (construct !== undefined) return `${construct}, which toolplane cannot check ahead`;
  return `shell syntax toolplane cannot check ahead (${nodeType.replaceAll('_', ' ')})`;
}
