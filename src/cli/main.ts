import './node-navigator';
import { loadLocalEnv } from '../core/config/dev-env';
import { EXIT_OK, reportError } from './errors';
import { buildProgram } from './program';

async function main(argv: string[]): Promise<number> {
  const { program, session } = buildProgram();
  try {
    loadLocalEnv();
    await program.parseAsync(argv);
    return EXIT_OK;
  } catch (error) {
    return reportError(error, program.opts().verbose === true);
  } finally {
    await session.close();
  }
}

void main(process.argv).then((code) => {
  process.exitCode = code;
});
