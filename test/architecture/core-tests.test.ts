import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Each area of src/core (a folder) has its own tests in test/core/<area>, calling the area's functions
 * directly: a route's test shows what a caller sees, not which area broke. The areas without a test file
 * in their folder.
 */
function areasWithoutTests(src: string, tests: string): string[] {
  const hasTests = (area: string) =>
    fs.existsSync(path.join(tests, area)) &&
    fs
      .readdirSync(path.join(tests, area), { recursive: true, encoding: 'utf8' })
      .some((file) => file.endsWith('.test.ts'));
  return fs
    .readdirSync(src, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .filter((area) => !hasTests(area))
    .sort();
}

describe('the tests of src/core', () => {
  it('include a folder of tests for every area', () => {
    const root = path.resolve(__dirname, '../..');
    expect(areasWithoutTests(path.join(root, 'src/core'), path.join(root, 'test/core'))).toEqual([]);
  });
});

describe('the test-folder rule', () => {
  it('names an area with no folder, or a folder with no test in it', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'core-tests-'));
    const touch = (file: string) => {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), '');
    };
    for (const file of ['src/orders/a.ts', 'src/refunds/a.ts', 'src/codes/a.ts', 'src/loose.ts']) touch(file);
    touch('test/orders/nested/create.test.ts');
    touch('test/refunds/helper.ts');
    try {
      expect(areasWithoutTests(path.join(root, 'src'), path.join(root, 'test'))).toEqual([
        'codes',
        'refunds',
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
