const LZ = require('lz-string');
const inputs = [
  '',
  'a',
  '{"size":9,"grid":[]}',
  'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  'héllo wörld ☃ 數獨 🎲',
  JSON.stringify({size: 9, title: "Thermo test", grid: Array.from({length: 9}, (_, r) => Array.from({length: 9}, (_, c) => (r + c) % 4 ? {} : {value: (r * 3 + c) % 9 + 1, given: true})), thermometer: [{lines: [["R1C1", "R1C2", "R1C3"]], outlineC: "#CFCFCF"}], arrow: [{cells: ["R5C5"], lines: [["R5C5", "R6C6", "R7C7"]]}], negative: ["ratio"]}),
];
let s = 'x'; for (let i = 0; i < 300; i++) s += String.fromCharCode(32 + (i * 7919) % 95);
inputs.push(s);
console.log(JSON.stringify(inputs.map(i => [i, LZ.compressToBase64(i)]), null, 1));
