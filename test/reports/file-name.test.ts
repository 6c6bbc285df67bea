/**
 * The name Download gives a rule written in the page (src/page/workbench/file-name.ts): `<id>.mjs`, safe on any
 * file system, whatever the id holds. Expected names are written here by hand from that rule.
 */
import { describe, expect, it } from 'vitest';
import { declaredId, fileNameOfId } from '../../src/page/workbench/file-name.js';

describe('Download’s file name, from the rule’s id', () => {
  it('an id as rule files have them is the name as it is', () => {
    expect(fileNameOfId('my-rule')).toBe('my-rule.mjs');
    expect(fileNameOfId('Infinity_N4-wip')).toBe('Infinity_N4-wip.mjs');
  });

  it('separators, dots, spaces, control and markup characters become one dash; nothing left is null', () => {
    expect(fileNameOfId('../../etc/passwd')).toBe('etc-passwd.mjs');
    expect(fileNameOfId('C:\\Windows\\rule')).toBe('C-Windows-rule.mjs');
    expect(fileNameOfId('a rule <b>\u0000\n"x"')).toBe('a-rule-b-x.mjs');
    expect(fileNameOfId('..')).toBeNull();
    expect(fileNameOfId('')).toBeNull();
    expect(fileNameOfId('日本')).toBeNull();
  });

  it('a name of at most 64 characters before .mjs, never ending in a dash', () => {
    expect(fileNameOfId('a'.repeat(500))).toBe(`${'a'.repeat(64)}.mjs`);
    expect(fileNameOfId(`${'a'.repeat(63)}/b`)).toBe(`${'a'.repeat(63)}.mjs`);
  });

  it('the id a text declares, read as text: the first id: with any quote, or null', () => {
    expect(declaredId("export default {\n  id: 'roll-off',\n  title: 'x',\n}")).toBe('roll-off');
    expect(declaredId('export default { id:"a/b", ruleId: \'c\' }')).toBe('a/b');
    expect(declaredId('export default { id: `tpl` }')).toBe('tpl');
    expect(declaredId('export default { title: "no id" }')).toBeNull();
    expect(declaredId('const ruleid = 1; export default { paid: 2 }')).toBeNull();
  });
});
