// The game page's layout: the board between the player bars, the replay buttons, and beside
// them the status, the actions, the move list and the chat (game.js fills them in).

/** The page of board `board`, before any game has loaded. */
export const gameLayout = (board) => `
    <div class="game" data-board="${board}">
      <div class="board-col">
        <div class="player-bars" id="bar-top"></div>
        <div id="board" class="board-box"></div>
        <div class="player-bars" id="bar-bottom"></div>
        <div class="replay" role="group" aria-label="replay">
          <button type="button" data-step="start" title="First position (Home)" aria-label="first position"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 5h2v14H6zM20 5v14L9 12z"/></svg></button>
          <button type="button" data-step="back" title="Back (←)" aria-label="back"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M17 5v14L6 12z"/></svg></button>
          <span id="ply-label">0 / 0</span>
          <button type="button" data-step="forward" title="Forward (→)" aria-label="forward"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M7 5v14l11-7z"/></svg></button>
          <button type="button" data-step="end" title="Latest position (End)" aria-label="latest position"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M16 5h2v14h-2zM4 5v14l11-7z"/></svg></button>
          <button type="button" id="flip" title="Flip the board" aria-label="flip the board" aria-pressed="false"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M7 3l-4 4h3v10h2V7h3zM17 21l4-4h-3V7h-2v10h-3z"/></svg></button>
        </div>
        <section id="review" class="review" aria-label="computer analysis" hidden>
          <p id="review-progress" class="review-progress" role="status"></p>
          <div id="review-graph"></div>
          <div id="review-summary"></div>
        </section>
      </div>
      <aside class="side">
        <div class="card status-card">
          <p id="status" class="status"></p>
          <p id="game-info" class="muted game-info"></p>
          <p id="notice" class="notice" role="status"></p>
          <p id="connection" class="connection"></p>
          <div id="proposal"></div>
          <div id="next-step" class="next-step"></div>
          <form id="move-form" class="move-form" autocomplete="off" hidden>
            <input id="move-input" placeholder="Type a move" aria-label="move" spellcheck="false">
            <button type="submit">Move</button>
          </form>
          <div class="actions">
            <button type="button" id="swap" class="primary" hidden title="Take over O's opening: the players exchange colours">Swap</button>
            <button type="button" id="resign" class="danger" hidden>Resign</button>
            <button type="button" id="undo" hidden>Propose undo</button>
            <button type="button" id="draw" hidden>Offer draw</button>
            <button type="button" id="analyse">Analyse</button>
            <button type="button" id="request-analysis" hidden>Request computer analysis</button>
            <a class="button" id="analyse-from-here" hidden>Analyse from here</a>
            <a class="button" id="pgn" href="/api/games/${board}/pgn" download="ataxx-${board}.pgn">Download PGN</a>
            <a class="button" id="record" href="/api/games/${board}/record" download="ataxx-${board}.txt" title="The 1995 two-column record">Record</a>
            <span class="share">Board image: <a id="image-svg" target="_blank" rel="noopener">SVG</a> · <a id="image-png" target="_blank" rel="noopener">PNG</a></span>
          </div>
          <p id="analysis" class="analysis"></p>
        </div>
        <div class="card"><h3>Moves</h3><div class="moves-box" tabindex="0" role="region" aria-label="moves"><table class="moves" id="moves"></table></div></div>
        <div class="card chat">
          <h3>Chat</h3>
          <h4 id="chat-players-title">Players</h4>
          <ul id="chat" tabindex="0" aria-labelledby="chat-players-title"></ul>
          <div id="spectator-chat-box"><h4 id="chat-spectators-title">Spectators</h4>
            <ul id="spectator-chat" tabindex="0" aria-labelledby="chat-spectators-title"></ul></div>
          <form id="chat-form" autocomplete="off" hidden><input id="chat-input" placeholder="Say something" maxlength="2000" aria-label="chat message"><button type="submit">Send</button></form>
        </div>
      </aside>
    </div>`;
