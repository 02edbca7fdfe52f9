// Plays a game through the TLS proxy: signs up two players over HTTPS, challenges and accepts,
// and has each move seen on the board's WebSocket (WSS) stream. ATAXX_URL is the https origin;
// the proxy's self-made certificate is trusted through NODE_EXTRA_CA_CERTS.
import assert from "node:assert/strict";

const base = process.env.ATAXX_URL;
const wssBase = base.replace(/^https:/, "wss:");

async function call(method, path, token, body) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const answer = await fetch(base + path, { method, headers, body: body && JSON.stringify(body) });
  const text = await answer.text();
  return { status: answer.status, body: text ? JSON.parse(text) : null, answer };
}

async function player(userid, password) {
  assert.equal((await call("POST", "/api/signup", null, { userid, password })).status, 201);
  const login = await call("POST", "/api/login", null, { userid, password });
  assert.equal(login.status, 200);
  return login.body.token;
}

const alice = await player("alice", "secret-1");
const bob = await player("bob", "secret-2");
const made = await call("POST", "/api/games", alice, { opponent: "bob", color: "x" });
assert.equal(made.status, 201, JSON.stringify(made.body));
const board = made.body.board;
assert.equal((await call("POST", `/api/games/${board}/accept`, bob)).status, 200);

const socket = new WebSocket(`${wssBase}/api/games/${board}/ws?token=${alice}`);
const seen = [];
let wake = () => {};
socket.onmessage = (message) => {
  seen.push(JSON.parse(message.data));
  wake();
};
await new Promise((resolve, reject) => {
  socket.onopen = resolve;
  socket.onerror = reject;
});
async function event(want) {
  const until = Date.now() + 10000;
  for (;;) {
    const found = seen.find(want);
    if (found) return found;
    assert.ok(Date.now() < until, `no such event among ${JSON.stringify(seen)}`);
    await new Promise((resolve) => { wake = resolve; setTimeout(resolve, 500); });
  }
}

const tokens = { alice, bob };
for (let ply = 1; ply <= 4; ply++) {
  const game = (await call("GET", `/api/games/${board}`, alice)).body;
  const mover = game.to_move ?? game.game?.to_move;
  const legal = game.legal_moves ?? game.game?.legal_moves;
  const played = await call("POST", `/api/games/${board}/move`, tokens[mover], { move: legal[0], guard: ply });
  assert.equal(played.status, 200, JSON.stringify(played.body));
  await event((e) => e.type === "moves" && e.ply >= ply);
}
socket.close();
console.log(`played 4 moves on board ${board} over HTTPS, each seen over WSS`);
