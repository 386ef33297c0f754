// Makes the share images' subset fonts in gateway/fonts (issue 27 item 15, decision 056):
// - NotoSansCJKSymbols-{400Regular,700Bold}.ttf: the CJK characters players put in names and clan tags
//   (亗 乂 彡 卍 ツ 『』 【】 …), cut from Noto Sans SC (10.5 MB a weight) to what is listed below;
// - NotoSansMathLetters-400Regular.ttf: the mathematical letters of "fancy" names (𝓡𝓞𝓗𝓘𝓣, 𝕬), cut from
//   Noto Sans Math, whose whole font also has Arabic letters without their joining forms: Pango took it
//   for Arabic names and drew them unjoined.
// Run by hand when a list changes, and commit the output:
//   npm pack @expo-google-fonts/noto-sans-sc@0.4.3 @expo-google-fonts/noto-sans-math@0.4.2
//   mkdir sc math && tar xzf expo-google-fonts-noto-sans-sc-0.4.3.tgz -C sc && tar xzf expo-google-fonts-noto-sans-math-0.4.2.tgz -C math
//   npm install --no-save subset-font
//   node scripts/subset-cjk-font.mjs sc/package math/package
import fs from 'node:fs';
import path from 'node:path';
import subsetFont from 'subset-font';

const [source, mathSource] = process.argv.slice(2);
if (!source || !mathSource) {
  console.error('usage: node scripts/subset-cjk-font.mjs <folder of @expo-google-fonts/noto-sans-sc> <folder of …/noto-sans-math>');
  process.exit(2);
}

const range = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i)).join('');
const TEXT = [
  range(0x2e80, 0x2fdf), // CJK radicals supplement, Kangxi radicals
  range(0x3000, 0x30ff), // CJK symbols and punctuation (『』【】〆々), Hiragana, Katakana (ツ)
  range(0x31c0, 0x31ff), // strokes, Katakana extension
  range(0x3200, 0x32ff), // enclosed CJK letters
  range(0xff00, 0xffef), // full-width forms
  range(0x4e00, 0x4fff), // the first ideographs: the strokes and simple forms of clan tags (丶丿乀乂么亗亻)
  // Ideographs that gaming names use, beyond the block above (the Kangxi radicals' own forms among them).
  '卍卐彡氵忄扌灬癶龍龙神魔鬼王皇帝影死忍侍狼虎鷹鹰武剑劍刀天地爱愛杀殺战戦戰兵将將军軍道魂灵霊靈夢梦無无空光闇暗炎',
  '雷冰氷星仙佛妖狐猫凤鳳凰麒麟玄朱雀白青零百千万萬心火水木金土日月山川風风雨雪花血刃拳龜亀蛇羽翼飛飞斬斩覇霸極极真',
  '黒黑紅红赤蒼苍銀银闘斗鬥魅幻狂獣兽君主尊圣聖凶邪冥墓弑恶悪惡罪罰罚刹剎羅罗修阿我吾他她的之子女男少年姫姬娘己已巳',
  '彐廾弋弓門门口囗卜厂匚凵冂冖宀丷八又力乙几儿入亠十廿卄才寸尸屮工巾干幺广廴彳戈户手支攴文斤方毋比毛氏气爪父爻片牙',
  '牛犬玉瓜瓦甘生用田疋疒皮皿目矛矢石示禸禾穴立竹米糸缶网羊老而耒耳聿肉臣自至臼舌舛舟艮色艸虍虫行衣襾見角言谷豆豕豸',
  '貝走足身車辛辰辵邑酉釆里長阜隶隹非面革韋韭音頁食首香馬骨高髟鬯鬲魚鳥鹵鹿麥麻黃黍黹黽鼎鼓鼠鼻齊齒龠',
].join('');

const out = path.resolve('gateway/fonts');
fs.mkdirSync(out, { recursive: true });
for (const weight of ['400Regular', '700Bold']) {
  const input = fs.readFileSync(path.join(source, weight, `NotoSansSC_${weight}.ttf`));
  const subset = await subsetFont(input, TEXT, { targetFormat: 'truetype' });
  const file = path.join(out, `NotoSansCJKSymbols-${weight}.ttf`);
  fs.writeFileSync(file, subset);
  console.log(`${file}: ${subset.length} bytes`);
}

// Mathematical alphanumeric symbols, letterlike symbols (ℛ ℬ ℭ), and nothing else of Noto Sans Math.
const MATH = [range(0x1d400, 0x1d7ff), range(0x2100, 0x214f)].join('');
const math = await subsetFont(fs.readFileSync(path.join(mathSource, '400Regular', 'NotoSansMath_400Regular.ttf')), MATH, {
  targetFormat: 'truetype',
});
const mathFile = path.join(out, 'NotoSansMathLetters-400Regular.ttf');
fs.writeFileSync(mathFile, math);
console.log(`${mathFile}: ${math.length} bytes`);
