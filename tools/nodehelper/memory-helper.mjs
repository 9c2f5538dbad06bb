// memory-helper.mjs: what seed 002's design would run at each step of an
// agent's entrypoint (decision 6: a helper script with subcommands, launched
// per step, talking to DynamoDB directly). make bench-inject times it
// against `agentmem inject`, which does steps 2b and 2c in one process and
// one API round trip.
//
//   node memory-helper.mjs prepend-personality AGENT WORKSPACE       # step 2b
//   node memory-helper.mjs write-memory AGENT PROJECT WORKSPACE      # step 2c
//
// Env: DYNAMODB_ENDPOINT, MEMORIES_TABLE, PERSONALITIES_TABLE, AWS_REGION.
import { DynamoDBClient, GetItemCommand, QueryCommand } from "@aws-sdk/client-dynamodb";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

const env = process.env;
const client = new DynamoDBClient({
  region: env.AWS_REGION || "us-east-1",
  endpoint: env.DYNAMODB_ENDPOINT,
  credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID || "local", secretAccessKey: env.AWS_SECRET_ACCESS_KEY || "local" },
});

const str = (v) => (v && v.S) || "";

async function atomicWrite(path, data) {
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, data);
  await rename(tmp, path);
}

async function prependPersonality(agent, workspace) {
  const out = await client.send(new GetItemCommand({
    TableName: env.PERSONALITIES_TABLE || "agent-personalities",
    Key: { agentName: { S: agent } },
  }));
  if (!out.Item) return;
  const p = out.Item;
  let section = `# Personality\n\nYou are **${str(p.displayName) || agent}**.`;
  if (str(p.voice)) section += ` Voice: ${str(p.voice)}.`;
  section += "\n";
  const traits = (p.traits && p.traits.L) || [];
  if (traits.length) section += "\nTraits:\n" + traits.map((t) => `- ${str(t)}\n`).join("");
  if (str(p.prompt)) section += `\n${str(p.prompt)}\n`;
  const file = join(workspace, "CLAUDE.md");
  let role = "";
  try { role = await readFile(file, "utf8"); } catch { /* no role file */ }
  await atomicWrite(file, section + "\n" + role);
}

async function writeMemory(agent, project, workspace) {
  const out = await client.send(new QueryCommand({
    TableName: env.MEMORIES_TABLE || "agent-memories",
    KeyConditionExpression: "#s = :s",
    ExpressionAttributeNames: { "#s": "scope" },
    ExpressionAttributeValues: { ":s": { S: `${agent}#${project}` } },
    ScanIndexForward: false,
    Limit: 50,
  }));
  const items = out.Items || [];
  if (!items.length) return;
  const groups = new Map();
  for (const m of items) {
    const type = str(m.type) || "note";
    if (!groups.has(type)) groups.set(type, []);
    groups.get(type).push(str(m.content));
  }
  let md = `# Memory: ${agent} / ${project}\n`;
  for (const [type, contents] of groups) md += `\n## ${type}\n` + contents.map((c) => `- ${c}\n`).join("");
  const dir = join(workspace, ".claude", "memory");
  await mkdir(dir, { recursive: true });
  await atomicWrite(join(dir, "MEMORY.md"), md);
}

const [cmd, ...args] = process.argv.slice(2);
try {
  if (cmd === "prepend-personality") await prependPersonality(args[0], args[1]);
  else if (cmd === "write-memory") await writeMemory(args[0], args[1], args[2]);
  else throw new Error(`unknown command ${cmd}`);
} catch (err) {
  console.error(`memory-helper: warning: ${err.message}`);
}
