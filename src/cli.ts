#!/usr/bin/env node
import { runCatalogueCheck } from "./catalogue/check-command.ts";

const [command, ...rest] = process.argv.slice(2);
const print = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  switch (`${command ?? ""} ${rest[0] ?? ""}`.trim()) {
    case "catalogue check":
      return runCatalogueCheck(print);
    default:
      print("usage: syllabi <serve | migrate | catalogue check | dev bootstrap --email E | …>");
      return 2;
  }
}

process.exitCode = await main();
