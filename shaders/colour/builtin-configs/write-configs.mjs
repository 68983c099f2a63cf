// Writes OpenColorIO's built-in configs as modules here: node --import tsx shaders/colour/builtin-configs/write-configs.mjs [OCIO_TOOLS]
// Each comes from `ociocheck --iconfig ocio://NAME --oconfig`, so it is the config as OCIO itself holds it; the module
// holds it parsed (yaml-tree's output as JSON), so that opening it skips the YAML parser, which dominates load time.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseYamlTree } from '../yaml-tree.ts';

const here = dirname(fileURLToPath(import.meta.url));
const tools = resolve(process.argv[2] ?? join(here, '../../../../shared/tools/ocio-2'));
const names = JSON.parse(execFileSync(join(tools, 'ocio_apply'), ['ocio://default', 'list'], { encoding: 'utf8' })).builtinConfigs;
const scratch = mkdtempSync(join(tmpdir(), 'exrview-builtin-'));
try {
  for (const { name } of names) {
    const out = join(scratch, `${name}.ocio`);
    execFileSync(join(tools, 'ociocheck'), ['--iconfig', `ocio://${name}`, '--oconfig', out], { stdio: 'ignore' });
    const json = JSON.stringify(parseYamlTree(readFileSync(out, 'utf8'), `ocio://${name}`));
    // pieces of at most 100 characters, so that the module keeps to the house line length
    const pieces = json.match(/[^]{1,100}/g) ?? [];
    writeFileSync(
      join(here, `${name}.ts`),
      `// OpenColorIO's built-in config ${name}, from \`ociocheck --oconfig\`, parsed (BSD-3-Clause: LICENSE).\n\n` +
        `export default [\n${pieces.map((piece) => `  ${JSON.stringify(piece)},`).join('\n')}\n].join('');\n`,
    );
    console.log(`${name}: ${json.length} characters`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
execFileSync('npx', ['prettier', '--write', join(here, '*.ts')], { stdio: 'inherit' });
