// Playing cards drawn as SVG: crisp at any size, a few hundred bytes each, nothing to download.
// The suit symbols and the back's pattern are defined once per page by installCardDefs().
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const RANKS = "A23456789TJQK";
const RED = "#c8102e";
// A suit's colour is the page's --suit-X (red and black, or the four-colour deck's blue diamonds and
// green clubs: the player's deck preference); the value after the comma is the two-colour default.
const SUIT_COLOURS = { S: "var(--suit-S, #1a1a1a)", C: "var(--suit-C, #1a1a1a)", D: "var(--suit-D, #c8102e)", H: "var(--suit-H, #c8102e)" };

const SUIT_SHAPES = {
  H: '<path d="M50 90C22 68 4 48 4 29 4 14 16 5 29 5c10 0 17 6 21 15 4-9 11-15 21-15 13 0 25 9 25 24 0 19-18 39-46 61z"/>',
  D: '<path d="M50 2Q69 28 90 50 69 72 50 98 31 72 10 50 31 28 50 2z"/>',
  S: '<path d="M50 3c12 20 45 36 45 59 0 16-12 24-25 24-8 0-14-4-17-9 1 10 5 16 13 20H34c8-4 12-10 13-20-3 5-9 9-17 9-13 0-25-8-25-24C5 39 38 23 50 3z"/>',
  C: '<g><circle cx="50" cy="28" r="20"/><circle cx="27" cy="58" r="20"/><circle cx="73" cy="58" r="20"/>' +
    '<path d="M46 50c0 22-5 35-14 46h36c-9-11-14-24-14-46z"/></g>',
};

// Pip positions for 2..10: [column, row] with columns l/m/r and rows 0..1 down the card.
const L = 65, M = 100, R = 135;
const PIPS = {
  2: [[M, 0], [M, 1]],
  3: [[M, 0], [M, 0.5], [M, 1]],
  4: [[L, 0], [R, 0], [L, 1], [R, 1]],
  5: [[L, 0], [R, 0], [M, 0.5], [L, 1], [R, 1]],
  6: [[L, 0], [R, 0], [L, 0.5], [R, 0.5], [L, 1], [R, 1]],
  7: [[L, 0], [R, 0], [M, 0.25], [L, 0.5], [R, 0.5], [L, 1], [R, 1]],
  8: [[L, 0], [R, 0], [M, 0.25], [L, 0.5], [R, 0.5], [M, 0.75], [L, 1], [R, 1]],
  9: [[L, 0], [R, 0], [L, 1 / 3], [R, 1 / 3], [M, 0.5], [L, 2 / 3], [R, 2 / 3], [L, 1], [R, 1]],
  10: [[L, 0], [R, 0], [M, 1 / 6], [L, 1 / 3], [R, 1 / 3], [L, 2 / 3], [R, 2 / 3], [M, 5 / 6], [L, 1], [R, 1]],
};

export function installCardDefs(root = document.body) {
  if (document.getElementById("card-defs")) return;
  const holder = document.createElementNS(SVG, "svg");
  holder.id = "card-defs";
  holder.setAttribute("aria-hidden", "true");
  holder.setAttribute("width", "0");
  holder.setAttribute("height", "0");
  holder.style.position = "absolute";
  let symbols = "";
  for (const [suit, shape] of Object.entries(SUIT_SHAPES)) {
    symbols += `<symbol id="suit-${suit}" viewBox="0 0 100 100">${shape}</symbol>`;
  }
  holder.innerHTML = `<defs>${symbols}
    <pattern id="card-back-lattice" width="16" height="16" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="16" height="16" style="fill: var(--back-1, #9b1c2e)"/>
      <rect x="0" y="0" width="8" height="8" style="fill: var(--back-2, #b3263a)"/>
      <circle cx="12" cy="12" r="2.2" fill="#e6c36a" opacity=".85"/>
    </pattern>
    <linearGradient id="card-face" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#f4efe2"/>
    </linearGradient>
    <linearGradient id="court-fill" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#fff6d8"/><stop offset="1" stop-color="#f3deb0"/>
    </linearGradient>
  </defs>`;
  root.prepend(holder);
}

function pip(suit, x, y, size, flip) {
  const half = size / 2;
  const turn = flip ? ` transform="rotate(180 ${x} ${y})"` : "";
  return `<use href="#suit-${suit}" x="${x - half}" y="${y - half}" width="${size}" height="${size}"${turn}/>`;
}

// The letters the corners show for A, J, Q, K in the page's language (French R for roi …).
const LETTERS = {};
export function setRankLetters(letters) {
  Object.assign(LETTERS, letters ?? {});
}

function corner(rankText, suit, colour) {
  const rank = rankText === "T" ? "10" : LETTERS[rankText] ?? rankText;
  const squeeze = rank === "10" ? ' textLength="34" lengthAdjust="spacingAndGlyphs"' : "";
  // The index (rank and suit) is a group of its own: large cards scale it up from the card's corner.
  const one = `<g class="card-index"><text x="22" y="44" text-anchor="middle" font-size="40" font-weight="700"${squeeze}
    font-family="Georgia, 'DejaVu Serif', serif" style="fill: ${colour}">${rank}</text>${pip(suit, 22, 64, 24, false)}</g>`;
  return `<g>${one}</g><g transform="rotate(180 100 140)">${one}</g>`;
}

const COURT_COLOURS = { J: ["#2357a6", "#e0b43c"], Q: ["#b51f3a", "#2357a6"], K: ["#7a2a8c", "#c8102e"] };

function courtHalf(rank, suit, colour) {
  const [robe, trim] = COURT_COLOURS[rank];
  const hat = {
    K: '<path d="M76 64l5-26 10 13 9-19 9 19 10-13 5 26z" fill="#e6b422" stroke="#7a5a00" stroke-width="2"/>' +
      '<circle cx="100" cy="33" r="3.5" fill="#c8102e"/><path d="M76 64h48" stroke="#7a5a00" stroke-width="4"/>',
    Q: '<path d="M78 64q22-34 44 0z" fill="#e6b422" stroke="#7a5a00" stroke-width="2"/>' +
      '<circle cx="100" cy="40" r="4.5" fill="#c8102e"/><circle cx="88" cy="52" r="2.5" fill="#2357a6"/>' +
      '<circle cx="112" cy="52" r="2.5" fill="#2357a6"/>',
    J: '<path d="M76 66q3-24 24-24t24 24z" fill="' + trim + '" stroke="#222" stroke-width="1.5"/>' +
      '<path d="M118 50q14-6 20 6" fill="none" stroke="#c8102e" stroke-width="4"/>',
  }[rank];
  const hair = {
    K: '<path d="M82 84q18 26 36 0v10q-18 20-36 0z" fill="#8a6a3a" stroke="#222" stroke-width="1.2"/>',
    Q: '<path d="M80 66q-6 30 4 40M120 66q6 30-4 40" fill="none" stroke="#c98b2e" stroke-width="7" stroke-linecap="round"/>',
    J: '<path d="M80 68q-2 14 4 20M120 68q2 14-4 20" fill="none" stroke="#6b4a22" stroke-width="6" stroke-linecap="round"/>',
  }[rank];
  return `<g>
    <path d="M50 140q2-40 50-44q48 4 50 44z" fill="${robe}" stroke="#222" stroke-width="2"/>
    <path d="M62 140q4-26 38-30q34 4 38 30" fill="none" stroke="${trim}" stroke-width="3" stroke-dasharray="6 4"/>
    <path d="M82 98l18 24 18-24" fill="#fff6d8" stroke="#222" stroke-width="1.5"/>
    <circle cx="100" cy="80" r="19" fill="#f7d7b5" stroke="#222" stroke-width="2"/>
    ${hair}
    <path d="M91 78h4M105 78h4M95 89q5 3 10 0" stroke="#222" stroke-width="2" fill="none" stroke-linecap="round"/>
    ${hat}
    ${pip(suit, 138, 112, 20, false)}
    <path d="M60 136l-4-40" stroke="#7a5a00" stroke-width="3"/>
  </g>`;
}

// Returns the SVG markup of a face-up card ("KC", "TD", "JK" for the joker).
export function cardFace(code) {
  if (code === "JK") {
    return `<svg class="card-svg" viewBox="0 0 200 280" aria-hidden="true">
      <rect x="1.5" y="1.5" width="197" height="277" rx="14" fill="url(#card-face)" stroke="#b9b2a1" stroke-width="3"/>
      <text x="100" y="150" text-anchor="middle" font-size="44" font-weight="700" fill="${RED}"
        font-family="Georgia, 'DejaVu Serif', serif">JOKER</text>
      <path d="M100 60l12 30 32 2-25 20 9 31-28-18-28 18 9-31-25-20 32-2z" fill="#e6b422" stroke="#7a5a00" stroke-width="2"/>
    </svg>`;
  }
  const rank = code[0];
  const suit = code[1];
  const colour = SUIT_COLOURS[suit];
  const value = RANKS.indexOf(rank) + 1;
  let body = "";
  if (value === 1) {
    body = pip(suit, 100, 140, suit === "S" ? 104 : 84, false);
  } else if (value <= 10) {
    for (const [x, row] of PIPS[value]) body += pip(suit, x, 56 + row * 168, 40, row > 0.5);
  } else {
    const half = courtHalf(rank, suit, colour);
    body = `<rect x="44" y="30" width="112" height="220" rx="6" fill="url(#court-fill)" style="stroke: ${colour}" stroke-width="3"/>
      <clipPath id="court-${code}"><rect x="44" y="30" width="112" height="110"/></clipPath>
      <g clip-path="url(#court-${code})">${half}</g>
      <g transform="rotate(180 100 140)"><g clip-path="url(#court-${code})">${half}</g></g>
      <path d="M50 140h100" style="stroke: ${colour}" stroke-width="1.5"/>`;
  }
  return `<svg class="card-svg" viewBox="0 0 200 280" aria-hidden="true">
    <rect x="1.5" y="1.5" width="197" height="277" rx="14" fill="url(#card-face)" stroke="#b9b2a1" stroke-width="3"/>
    <g style="fill: ${colour}">${corner(rank, suit, colour)}<g class="card-body">${body}</g></g>
  </svg>`;
}

// Returns the SVG markup of a card's back.
export function cardBack() {
  return `<svg class="card-svg" viewBox="0 0 200 280" aria-hidden="true">
    <rect x="1.5" y="1.5" width="197" height="277" rx="14" fill="#fdfbf6" stroke="#b9b2a1" stroke-width="3"/>
    <rect x="12" y="12" width="176" height="256" rx="8" fill="url(#card-back-lattice)"/>
    <rect x="12" y="12" width="176" height="256" rx="8" fill="none" stroke="#e6c36a" stroke-width="3"/>
    <rect x="20" y="20" width="160" height="240" rx="5" fill="none" stroke="#fdfbf6" stroke-opacity=".5" stroke-width="1.5"/>
  </svg>`;
}

export function isRed(code) {
  return code[1] === "H" || code[1] === "D";
}
