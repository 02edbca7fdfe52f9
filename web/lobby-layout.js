// The lobby's layout: the form that starts a game (with its blocked-layout picker) beside the
// lists: quick pairing, the open seeks, challenges, my games, who is online, the bots, and my
// finished games (lobby.js and the lobby-*.js modules fill them in).

import { esc } from './api.js';
import { CLOCKS } from './kinds.js';

/** The lobby before anything has loaded. */
export const lobbyLayout = () => `
    <div class="lobby">
      <section class="card new-game">
        <h2>New game</h2>
        <p class="error" id="lobby-offline" role="alert" hidden></p>
        <form id="challenge-form">
          <label>Game <select name="game" id="game-select"></select></label>
          <fieldset class="segmented">
            <legend>Opponent</legend>
            <label><input type="radio" name="kind" value="bot" checked> Computer</label>
            <label><input type="radio" name="kind" value="person"> Person</label>
          </fieldset>
          <label class="bot-only">Level <select name="bot" id="bot-select"></select></label>
          <p class="bot-only hint" id="bot-description"></p>
          <label class="person-only" hidden>User name
            <input name="opponent" list="people" autocomplete="off" placeholder="who to challenge">
          </label>
          <label class="four-only" hidden>Third player <input name="opponent3" list="people" autocomplete="off" placeholder="plays green"></label>
          <label class="four-only" hidden>Fourth player <input name="opponent4" list="people" autocomplete="off" placeholder="plays yellow"></label>
          <datalist id="people"></datalist>
          <div class="row">
            <label>You play <select name="color">
              <option value="x">the first colour (moves first)</option>
              <option value="o">the second colour</option>
              <option value="random">random</option>
            </select></label>
            <label>Board <select name="size"></select></label>
          </div>
          <p class="hint" id="colour-note"></p>
          <label>Time <select name="clock">${CLOCKS.map(([v, t]) => `<option value="${v}">${esc(t)}</option>`).join('')}</select></label>
          <div class="blocks" id="blocks">
            <label>Blocked squares <input name="blocks" id="blocks-input" placeholder="Blocks-Config code (6bch) or mask (0x0F00)" autocomplete="off" spellcheck="false"></label>
            <div class="blocks-body">
              <div class="mini-board" id="blocks-board" title="Click squares to block them; the mirror images follow"></div>
              <div class="blocks-info">
                <p>Code <strong id="layout-code">0</strong></p>
                <p>Canonical <strong id="layout-canonical">0</strong></p>
                <p>Mask <code id="layout-mask">0x0000</code></p>
                <p><span id="layout-count">0</span> blocked</p>
                <p class="fen"><code id="layout-fen">x5o/7/7/7/7/7/o5x x 0 1</code></p>
                <button type="button" class="small" id="blocks-clear">Clear</button>
              </div>
            </div>
            <p class="error" id="blocks-error" role="alert"></p>
          </div>
          <p class="error" id="challenge-error" role="alert"></p>
          <button type="submit" class="primary" id="challenge-submit">Play</button>
        </form>
      </section>
      <div class="lobby-lists">
        <section class="card"><h2>Quick pairing</h2><div id="lobby-pairing"></div></section>
        <section class="card"><h2>Open seeks</h2><div id="lobby-seeks"></div>
          <p><a href="#/seeks">Post a seek with your own terms</a></p></section>
        <section class="card"><h2>Challenges</h2><ul class="games" id="challenges"></ul></section>
        <section class="card"><h2>My games</h2><ul class="games" id="my-games"></ul></section>
        <section class="card two">
          <div><h2>Players online</h2><ul class="people" id="online"></ul></div>
          <div><h2>Bots</h2><ul class="people" id="bots"></ul></div>
        </section>
        <section class="card"><h2>Finished</h2><ul class="games" id="finished"></ul></section>
      </div>
    </div>`;
