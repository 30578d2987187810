import type { ExamBoardId } from "./source-schema.ts";

export interface ExamBoard {
  id: ExamBoardId;
  name: string;
  /** Names a caller may use for the board in filters, lower-cased. */
  aliases: readonly string[];
  /** Spec documents and pages must be https on one of these domains (or a subdomain). */
  domains: readonly string[];
  /** The default shape of a specification code for this board. */
  codePattern: RegExp;
}

export const examBoards: readonly ExamBoard[] = [
  {
    id: "aqa",
    name: "AQA",
    aliases: ["aqa"],
    domains: ["aqa.org.uk"],
    codePattern: /^\d+(\.\d+)+[a-z]?$/,
  },
  {
    id: "edexcel",
    name: "Pearson Edexcel",
    aliases: ["pearson edexcel", "edexcel"],
    domains: ["qualifications.pearson.com"],
    codePattern: /^[A-Z]{0,3}\d+(\.\d+)*[a-z]?$/,
  },
  {
    id: "ocr",
    name: "OCR",
    aliases: ["ocr"],
    domains: ["ocr.org.uk"],
    codePattern: /^\d+(\.\d+)*[a-z]?$/,
  },
  {
    id: "eduqas",
    name: "WJEC Eduqas",
    aliases: ["wjec eduqas", "eduqas", "wjec"],
    domains: ["eduqas.co.uk", "wjec.co.uk"],
    codePattern: /^[A-Z0-9]+(\.\d+)*[a-z]?$/,
  },
  {
    id: "pearson",
    name: "Pearson BTEC",
    aliases: ["pearson btec", "pearson", "btec"],
    domains: ["qualifications.pearson.com"],
    codePattern: /^[A-Z0-9]+(\.[A-Z0-9]+)*$/,
  },
];

const boardsById = new Map(examBoards.map((board) => [board.id, board]));

export function examBoardById(id: ExamBoardId): ExamBoard {
  const board = boardsById.get(id);
  if (!board) throw new Error(`unknown exam board ${id}`);
  return board;
}

export function isOnBoardDomain(url: string, board: ExamBoard): boolean {
  const host = new URL(url).hostname;
  return board.domains.some((domain) => host === domain || host.endsWith(`.${domain}`));
}
