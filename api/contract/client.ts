// A score app's first evening through a TypeScript client of openapi.yaml:
// openapi-typescript's types (schema.d.ts, generated beside a copy of this
// file by TestTypeScriptClient) and openapi-fetch. tsc type-checks every
// path, parameter, body and answer against the contract; the run records
// a Doppelkopf hand with typed facts, reads the table's typed state and
// scores a draft hand from it. Usage: node client.js URL KEY.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];
type GameState = Schemas["GameState"];
type DoppelkopfState = Schemas["DoppelkopfState"];
type DoppelkopfFacts = Schemas["DoppelkopfFacts"];

// isDoppelkopf narrows a table's state to the Doppelkopf shape.
function isDoppelkopf(s: GameState): s is DoppelkopfState {
  return "bock_games_left" in s;
}

async function main(url: string, key: string): Promise<void> {
  const api = createClient<paths>({ baseUrl: url, headers: { Authorization: `Bearer ${key}` } });
  const seating: number[] = [];
  for (const name of ["Anna", "Bernd", "Clara", "Dieter"]) {
    const p = await api.POST("/v1/players", { body: { name } });
    seating.push(must(p.data, p.response, 201).id);
  }
  const t = await api.POST("/v1/tables", { body: { name: "Donnerstag", game: "doppelkopf" } });
  const table = must(t.data, t.response, 201).id;
  const s = await api.POST("/v1/tables/{tableID}/sessions", { params: { path: { tableID: table } }, body: { player_ids: seating } });
  const session = must(s.data, s.response, 201).id;

  print("before", await tableState(api, table));
  const facts: DoppelkopfFacts = { game: "normal", re: { players: [seating[0]!, seating[1]!], augen: 151 }, herzstich: true };
  const h = await api.POST("/v1/tables/{tableID}/hands", {
    params: { path: { tableID: table } },
    body: { session_id: session, number: 1, facts },
  });
  const hand = must(h.data, h.response, 201);
  if (!("game" in hand.facts) || hand.facts.game !== "normal") {
    throw new Error(`the recorded hand's facts are not Doppelkopf facts: ${JSON.stringify(hand.facts)}`);
  }
  const after = await tableState(api, table);
  print("after", after);

  // The stateless score endpoint takes the typed state the table gave.
  const draftFacts: DoppelkopfFacts = { game: "normal", re: { players: [seating[0]!, seating[2]!], augen: 130 } };
  const d = await api.POST("/v1/games/doppelkopf/score", { body: { player_ids: seating, state: after, facts: draftFacts } });
  const draft = must(d.data, d.response, 200);
  if (!isDoppelkopf(draft.state)) {
    throw new Error(`the draft's state is not a Doppelkopf state: ${JSON.stringify(draft.state)}`);
  }
  print("draft", draft.state);
}

// tableState reads a table's state as a Doppelkopf state.
async function tableState(api: ReturnType<typeof createClient<paths>>, table: number): Promise<DoppelkopfState> {
  const r = await api.GET("/v1/tables/{tableID}", { params: { path: { tableID: table } } });
  const state = must(r.data, r.response, 200).state;
  if (!isDoppelkopf(state)) {
    throw new Error(`table ${table}'s state is not a Doppelkopf state: ${JSON.stringify(state)}`);
  }
  return state;
}

function print(when: string, s: DoppelkopfState): void {
  console.log(`${when}: next_dealer=${s.next_dealer ?? 0} bock_games_left=${s.bock_games_left} bock_rounds_queued=${s.bock_rounds_queued} summary=${JSON.stringify(s.summary)}`);
}

// must returns an answer's typed body, or throws naming the status.
function must<T>(data: T | undefined, res: Response, status: number): T {
  if (res.status !== status || data === undefined) {
    throw new Error(`${res.url}: status ${res.status}, want ${status}`);
  }
  return data;
}

const [url, key] = process.argv.slice(2);
if (!url || !key) {
  console.error("usage: node client.js URL KEY");
  process.exit(2);
}
main(url, key).catch((err: unknown) => {
  console.error("tsclient:", err);
  process.exit(1);
});
