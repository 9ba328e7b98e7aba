// Runs the CLI in this process and reports its exit code and peak RSS (process.resourceUsage().maxRSS, KiB)
// on the last line of stderr, so the battery measures each run in a process of its own.
import { main } from '../../src/cli/main.ts';

const code = await main(process.argv.slice(2));
process.stderr.write(`\n@@child ${JSON.stringify({ code, maxRssKiB: process.resourceUsage().maxRSS })}\n`);
process.exit(code);
