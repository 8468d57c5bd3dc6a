// The trivial two-player race used on both systems: each move adds 1..3 to a
// shared counter and rolls a die from the game's seeded RNG; turns alternate.
'use strict';

const Race = {
  name: 'race',
  minPlayers: 2,
  maxPlayers: 2,
  setup: () => ({ counter: 0, rolls: [] }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    add: ({ G, random }, n) => {
      G.counter += n;
      G.rolls.push(random.D6());
      if (G.rolls.length > 5) G.rolls.shift();
    },
  },
};

module.exports = { Race };
