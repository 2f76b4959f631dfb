// A fake `window.__TAURI__` for developing and testing ui/ in an ordinary browser. It follows
// ui/API.md: the same command names, argument names and result shapes, errors as
// {code, kind, message, path?, params}, progress through a Channel. Arguments are checked strictly, so a
// call that breaks the contract fails here the way it would fail in Tauri.
//
// Load it as a classic script before the app's modules (ui-dev/index.html does). URL parameters:
//   ?empty=1       start with an empty library (first start)
//   ?old=1         start with a library made by an older Tongwen: library_status says needs_upgrade,
//                  check and demo fail with kind library_needs_upgrade until library_upgrade has run
//   ?lang=zh|en    settings.language (default null: follow the browser)
//   ?latency=MS    delay of every command (default 40)
//   ?step=MS       delay per file of add/check/demo, per step of an upgrade (default 60)
//
// window.__mock lets a test steer it: nextPick (paths for the next open dialog), nextSave,
// failNext(command, error) with error a {code, kind, message, path?, params} object (or
// failNext(command, code, message) for an error without a kind), makeStale() (the current library
// becomes an old one), drop(paths), dragEnter(paths), dragLeave(), calls, exported.

(function () {
  'use strict';

  // Tauri's `security.freezePrototype` is on in tauri.conf.json: behave the same here.
  Object.freeze(Object.prototype);

  const params = new URLSearchParams(location.search);
  const LATENCY = Number(params.get('latency') ?? 40);
  const STEP = Number(params.get('step') ?? 60);
  const T0 = 1795334961;
  const DEMO_DIR = '/opt/tongwen/assets/demo';
  const HOME = '/home/user';

  // ---- the library documents and their paragraphs ------------------------------------------------

  const DEMO_DOCS = [
    {
      id: 1, title: 'campus-water', path: `${DEMO_DIR}/library/campus-water.txt`, format: 'txt', bytes: 623,
      texts: [
        '校园节水行动从去年秋季开始试行。学校在每栋宿舍楼安装了智能水表，后勤处每周公布各楼层的用水数据，用水量明显下降的楼层会在学期末获得表彰。',
        '为了让同学们了解节水的意义，环境学院的志愿者在食堂门口设立了宣传展板，介绍本地水库的蓄水情况和城市供水的成本，并邀请同学们在展板上写下自己的节水承诺。',
        '试行一个学期后，宿舍区的总用水量比前一年同期减少了百分之十二。后勤处认为，数据公开和同伴之间的比较是节水效果最明显的两个原因。',
      ],
    },
    {
      id: 2, title: 'night-sky', path: `${DEMO_DIR}/library/night-sky.txt`, format: 'txt', bytes: 751,
      texts: [
        'Light pollution hides most of the stars from people who live in cities. A sky that would show several thousand stars in the countryside may show only a few dozen above a brightly lit town, because scattered light from street lamps and buildings brightens the whole sky.',
        'Astronomy clubs measure sky brightness with a small handheld meter that points straight up and reports a number in magnitudes per square arcsecond. Higher numbers mean a darker sky, and a change of one magnitude is a change of about two and a half times in brightness.',
        "Shielded lamps that send their light only downwards, warmer colours and timers that dim lights after midnight can make a town's sky noticeably darker within a single year, without making the streets less safe.",
      ],
    },
    {
      id: 3, title: 'reading-club', path: `${DEMO_DIR}/library/reading-club.txt`, format: 'txt', bytes: 575,
      texts: [
        '读书会每两周在图书馆三楼的研讨室举行一次活动。每次活动由一名同学担任主持人，提前一周在群里公布要讨论的章节，并准备三到五个开放性的问题。',
        '讨论时，主持人先请每位成员用一两句话说出自己印象最深的段落，然后围绕事先准备的问题展开讨论。成员们发现，先听别人的感受再表达自己的看法，能让讨论更加深入。',
        '学期结束时，读书会把大家的读书笔记整理成一本小册子，放在图书馆的流通台供其他同学免费取阅。',
      ],
    },
  ];

  const CORPUS_DIR = `${HOME}/corpus`;
  const CORPUS_DOCS = [
    {
      id: 4, title: 'Web safety <em>style</em> guide', path: `${CORPUS_DIR}/web-safety-guide.docx`, format: 'docx', bytes: 18432,
      texts: [
        'This guide collects the rules our editors follow when documents are shown on screen.',
        'Rule 3. Text from a document such as <img src=x onerror=alert(1)> and <script>alert("xss")</script> must always be shown as text and never run, because a document is data, not code.',
        'Rule 4. Links in a document are shown with their full address so that readers can see where they lead.',
      ],
    },
    {
      id: 5, title: '校园池塘水质观测报告', path: `${CORPUS_DIR}/校园池塘水质观测报告.pdf`, format: 'pdf', bytes: 201344,
      texts: [
        '本报告记录了春季校园池塘的观测结果。池塘的溶解氧含量在雨后明显升高，而浊度在连续晴天后逐渐下降，这说明降雨对池塘水体有明显的补充作用。观测由环境社团的同学每周完成一次。',
        '观测点设在池塘的东、西两侧，每次测量水温、溶解氧、浊度和酸碱度四项指标。',
      ],
    },
    {
      id: 6, title: 'Dark-sky community handbook', path: `${CORPUS_DIR}/dark-sky-handbook.pdf`, format: 'pdf', bytes: 96512,
      texts: [
        'A dark-sky community protects its night sky through good lighting and public education.',
        'Several towns have adopted community rules that switch off advertising lights at midnight, and most residents did not notice any difference in safety.',
      ],
    },
  ];
  const FILLER_TITLES = [
    'Lecture notes week 1', 'Lecture notes week 2', 'Lecture notes week 3', '课程大纲（2025 秋）',
    'Lab report template', '实验报告范文', 'Reading list', '期中论文样本 A', '期中论文样本 B',
    'Essay guidelines', '学术写作规范', 'Field trip summary', 'Library orientation', '毕业设计选题指南',
    'Group project brief', 'Peer review checklist', '校史简介', 'Climate unit overview',
    'Water cycle worksheet', 'Astronomy club minutes', '读书会章程', 'Seminar handout', 'Sample abstract',
    'Citation styles compared', 'Statistics primer', '问卷设计说明', 'Debate rules', 'Poster guidelines',
    'Interview transcript', 'Campus map notes', 'Energy audit', '志愿服务记录', 'Exam revision tips',
  ];
  const FORMATS = ['docx', 'pdf', 'txt'];
  const FILLER_DOCS = FILLER_TITLES.map((title, i) => ({
    id: 7 + i,
    title,
    path: `${CORPUS_DIR}/${title}.${FORMATS[i % 3]}`,
    format: FORMATS[i % 3],
    bytes: 4000 + ((i * 7919) % 90000),
    paragraphCount: 3 + ((i * 37) % 40),
    texts: [`${title}.`],
  }));
  // Errors as the engine's ErrorInfo: {kind, message (English, names the file), path?, params}.
  function errorInfo(kind, path, cause, params = {}) {
    const info = { kind, message: path ? `${path}: ${cause}` : cause, params };
    if (path) info.path = path;
    return info;
  }
  const noTextLayer = (path) =>
    errorInfo('no_text_layer', path, 'the PDF has no text layer (a scanned document?); Tongwen does not do OCR');
  const CORPUS_FAILURES = [
    noTextLayer(`${CORPUS_DIR}/scanned-handout.pdf`),
    errorInfo('corrupt_docx', `${CORPUS_DIR}/locked.docx`, 'corrupt Word document: invalid Zip archive: Could not find central directory end', {
      detail: 'invalid Zip archive: Could not find central directory end',
    }),
    errorInfo('empty_file', `${CORPUS_DIR}/empty <notes>.txt`, 'the file is empty'),
  ];
  const ALL_SOURCES = new Map([...DEMO_DOCS, ...CORPUS_DOCS, ...FILLER_DOCS].map((d) => [d.id, d]));

  function nonWhitespace(text) {
    let n = 0;
    for (const ch of text) if (!/\s/u.test(ch)) n += 1;
    return n;
  }

  function documentRecord(source, addedAt) {
    const texts = source.texts;
    return {
      id: source.id,
      title: source.title,
      path: source.path,
      format: source.format,
      content_hash: hashHex(source.path + texts.join('\n')),
      bytes: source.bytes,
      paragraphs: source.paragraphCount ?? texts.length,
      chars: source.paragraphCount ? source.paragraphCount * 180 : texts.reduce((n, t) => n + nonWhitespace(t), 0),
      added_at: addedAt,
    };
  }

  function hashHex(text) {
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193;
    for (let i = 0; i < text.length; i += 1) {
      h1 = Math.imul(h1 ^ text.charCodeAt(i), 16777619) >>> 0;
      h2 = Math.imul(h2 + text.charCodeAt(i), 2246822519) >>> 0;
    }
    return (h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0')).repeat(2);
  }

  // ---- the submissions -------------------------------------------------------------------------

  // Spans are given in Unicode scalar values (as Rust computes them) or found from a copied passage;
  // the *_utf16 pairs are derived, as Rust derives them.
  const SUBMISSIONS = {
    'student-essay': {
      texts: [
        '我们学校的节水行动是从去年秋天开始试行的。学校在每栋宿舍楼都安装了智能水表，后勤处每周公布各个楼层的用水数据，用水量下降明显的楼层会在期末得到表彰。',
        '我认为节约用水不仅是学校的事情，也是每个人的责任。在家里，我会提醒家人洗菜的水可以用来浇花，洗澡的时间也尽量控制在十分钟以内。',
        "Light pollution hides most of the stars from people who live in cities. Shielded lamps that send their light only downwards, warmer colours and timers that dim lights after midnight can make a town's sky noticeably darker within a single year.",
        '读书会的活动让我学会了倾听。讨论的时候，主持人会先请每位成员用一两句话说出自己印象最深的段落，然后大家再围绕准备好的问题展开讨论。',
      ],
      matches: [
        { para: 0, doc: 1, sourcePara: 0, similarity: 0.8378, hamming: 7, scalar: [[[5, 67], [2, 60]]] },
        { para: 2, doc: 2, sourcePara: 2, similarity: 0.7094, hamming: 11, scalar: [[[72, 243], [0, 171]]] },
        { para: 2, doc: 2, sourcePara: 0, similarity: 0.2906, hamming: 15, scalar: [[[0, 71], [0, 71]]] },
        { para: 3, doc: 3, sourcePara: 1, similarity: 0.5692, hamming: 17, scalar: [[[20, 49], [4, 32]], [[57, 65], [38, 46]]] },
      ],
    },
    'essay-2': {
      texts: [
        '📚 Notes on markup: the guide says <img src=x onerror=alert(1)> and <script>alert("xss")</script> must always be shown as text and never run, because a document is data, not code.',
        '😀 同学们在实验课上测量了校园池塘的水质。结果显示，池塘的溶解氧含量在雨后明显升高，而浊度在连续晴天后逐渐下降，这说明降雨对池塘水体有明显的补充作用。',
        'In my own view, the most important lesson is that rules only work when people understand why they exist. I asked three classmates about this and wrote down what they said.',
        'Cities can keep their night sky: several towns have adopted community rules that switch off advertising lights at midnight, and shielded lamps that send their light only downwards help too 🌙.',
        '最后，我想感谢老师和同学们的帮助。🌕 这次调查让我明白，保护环境要从身边的小事做起。',
        '🌠 One handbook puts it plainly: "A dark-sky community protects its night sky through good lighting and public education" (Lee, 2021, p. 4).',
        '关于读书会的分工，《读书会章程》是这样规定的：',
        '每次活动由一名同学担任主持人，提前一周在群里公布要讨论的章节，并准备三到五个开放性的问题。',
      ],
      matches: [
        { para: 0, doc: 4, sourcePara: 1, hamming: 9, passages: ['<img src=x onerror=alert(1)> and <script>alert("xss")</script> must always be shown as text and never run, because a document is data, not code.'] },
        { para: 1, doc: 5, sourcePara: 0, hamming: 12, passages: ['池塘的溶解氧含量在雨后明显升高，而浊度在连续晴天后逐渐下降，这说明降雨对池塘水体有明显的补充作用。'] },
        { para: 3, doc: 6, sourcePara: 1, hamming: 21, passages: ['several towns have adopted community rules that switch off advertising lights at midnight'] },
        { para: 3, doc: 2, sourcePara: 2, hamming: 24, passages: ['shielded lamps that send their light only downwards'] },
        // Cited quotations (`cited`): the quotation (null: the whole paragraph, a block quotation) and its
        // citation, in this paragraph or, with `previous`, in the one before (a lead-in).
        {
          para: 5, doc: 6, sourcePara: 0, hamming: 6,
          passages: ['A dark-sky community protects its night sky through good lighting and public education'],
          cited: { quotation: '"A dark-sky community protects its night sky through good lighting and public education"', citation: 'Lee, 2021, p. 4' },
        },
        {
          para: 7, doc: 3, sourcePara: 0, hamming: 5,
          passages: ['每次活动由一名同学担任主持人，提前一周在群里公布要讨论的章节，并准备三到五个开放性的问题。'],
          cited: { quotation: null, citation: '《读书会章程》', previous: true },
        },
      ],
    },
  };

  function toUtf16(text, [start, end]) {
    const chars = Array.from(text);
    const before = chars.slice(0, start).join('').length;
    return [before, before + chars.slice(start, end).join('').length];
  }

  function toScalar(text, utf16Start, utf16Length) {
    const start = Array.from(text.slice(0, utf16Start)).length;
    return [start, start + Array.from(text.slice(utf16Start, utf16Start + utf16Length)).length];
  }

  function findIgnoringFirstCase(haystack, needle) {
    let at = haystack.indexOf(needle);
    if (at < 0) at = haystack.indexOf(needle[0].toLowerCase() + needle.slice(1));
    if (at < 0) at = haystack.indexOf(needle[0].toUpperCase() + needle.slice(1));
    return at;
  }

  /**
   * A cited quotation's `cited_by` (scalar offsets, as Rust gives them); `disputed` holds the starts of
   * the paragraph's disputed quotations.
   */
  function citedBy(submission, para, cited, disputed) {
    const text = submission.texts[para];
    const where = cited.previous ? submission.texts[para - 1] : text;
    const at = cited.quotation == null ? 0 : text.indexOf(cited.quotation);
    const c = where.indexOf(cited.citation);
    if (at < 0 || c < 0) throw new Error(`mock data: quotation or citation not found in paragraph ${para}`);
    const quotation = cited.quotation == null ? [0, Array.from(text).length] : toScalar(text, at, cited.quotation.length);
    return {
      quotation,
      citation: toScalar(where, c, cited.citation.length),
      in_previous: Boolean(cited.previous),
      disputed: disputed.has(quotation[0]),
    };
  }

  /** All matches of a canned submission paragraph, at any threshold, as API.md's Match. */
  function rawMatches(submission, para, libraryIds, disputed = new Set()) {
    const text = submission.texts[para];
    const out = [];
    for (const m of submission.matches) {
      if (m.para !== para || !libraryIds.has(m.doc)) continue;
      const source = ALL_SOURCES.get(m.doc);
      const sourceText = source.texts[m.sourcePara];
      let spans;
      if (m.scalar) {
        spans = m.scalar.map(([sub, src]) => ({
          submission: sub,
          source: src,
          submission_utf16: toUtf16(text, sub),
          source_utf16: toUtf16(sourceText, src),
        }));
      } else {
        // A passage in a cited quotation is `quoted`, or `copied` in quotation marks once disputed.
        const cited = m.cited ? citedBy(submission, para, m.cited, disputed) : null;
        spans = m.passages.map((passage) => {
          const a = findIgnoringFirstCase(text, passage);
          const b = findIgnoringFirstCase(sourceText, passage);
          if (a < 0 || b < 0) throw new Error(`mock data: passage not found: ${passage}`);
          const span = {
            submission: toScalar(text, a, passage.length),
            source: toScalar(sourceText, b, passage.length),
            submission_utf16: [a, a + passage.length],
            source_utf16: [b, b + passage.length],
          };
          if (cited) Object.assign(span, { kind: cited.disputed ? 'copied' : 'quoted', in_quotes: cited.disputed, cited_by: { ...cited } });
          return span;
        });
      }
      const similarity =
        m.similarity ??
        Math.round((countIn(text, spans.map((s) => s.submission_utf16)) / nonWhitespace(text)) * 10000) / 10000;
      out.push({
        source_path: source.path,
        source_title: source.title,
        source_document: source.id,
        source_paragraph: m.sourcePara,
        source_text: sourceText,
        similarity,
        hamming: m.hamming,
        spans,
      });
    }
    return out;
  }

  /** Non-whitespace characters of `text` inside the union of UTF-16 ranges. */
  function countIn(text, ranges) {
    const covered = new Uint8Array(text.length);
    for (const [s, e] of ranges) covered.fill(1, s, e);
    let n = 0;
    let i = 0;
    for (const ch of text) {
      if (covered[i] && !/\s/u.test(ch)) n += 1;
      i += ch.length;
    }
    return n;
  }

  function submissionFor(path) {
    const name = path.split('/').pop();
    if (/scan/i.test(name) || /\.(doc|odt)$/i.test(name)) return { error: noTextLayer(path) };
    if (name.startsWith('student-essay')) return SUBMISSIONS['student-essay'];
    return SUBMISSIONS['essay-2'];
  }

  /**
   * One submission's DocumentReport. `index` is its place in the check (for its disputed quotations);
   * with "quotes" in `exclude`, `quoted` passages are left out of copied_chars, the similarity and the
   * sources (they stay in total_ratio and the paragraphs), as in Rust.
   */
  function documentReport(path, threshold, libraryIds, { index: docIndex = 0, exclude = [] } = {}) {
    const submission = submissionFor(path);
    if (submission.error) {
      return {
        file: path, similarity_ratio: 0, largest_source_ratio: 0, total_chars: 0, copied_chars: 0,
        flagged_paragraphs: 0, sources: [], paragraphs: [], error: submission.error.message,
        error_info: submission.error,
      };
    }
    const bySource = new Map();
    let total = 0;
    let copied = 0;
    let counted = 0;
    const counts = (span) => !(exclude.includes('quotes') && span.kind === 'quoted');
    const paragraphs = submission.texts.map((text, index) => {
      const disputed = new Set(
        [...(lastCheck.disputed ?? [])]
          .map((key) => key.split(':').map(Number))
          .filter(([d, p]) => d === docIndex && p === index)
          .map(([, , start]) => start),
      );
      const matches = rawMatches(submission, index, libraryIds, disputed)
        .filter((m) => m.similarity >= threshold)
        .sort((a, b) => b.similarity - a.similarity || a.source_title.localeCompare(b.source_title))
        .slice(0, 3);
      const chars = nonWhitespace(text);
      const paraCopied = countIn(text, matches.flatMap((m) => m.spans.map((s) => s.submission_utf16)));
      total += chars;
      copied += paraCopied;
      counted += countIn(text, matches.flatMap((m) => m.spans.filter(counts).map((s) => s.submission_utf16)));
      const perSource = new Map();
      for (const m of matches) {
        const ranges = m.spans.filter(counts).map((s) => s.submission_utf16);
        if (!ranges.length) continue;
        if (!perSource.has(m.source_document)) perSource.set(m.source_document, { m, ranges: [] });
        perSource.get(m.source_document).ranges.push(...ranges);
      }
      for (const [id, { m, ranges }] of perSource) {
        if (!bySource.has(id)) {
          bySource.set(id, { source_path: m.source_path, source_title: m.source_title, document_id: id, copied_chars: 0, ratio: 0, paragraphs: 0 });
        }
        const s = bySource.get(id);
        s.copied_chars += countIn(text, ranges);
        s.paragraphs += 1;
      }
      return { index, text, flagged: matches.length > 0, copied_chars: paraCopied, chars, matches };
    });
    const sources = [...bySource.values()]
      .map((s) => ({ ...s, ratio: round4(s.copied_chars / total) }))
      .sort((a, b) => b.copied_chars - a.copied_chars || a.source_title.localeCompare(b.source_title));
    return {
      file: path,
      total_ratio: round4(total ? copied / total : 0),
      similarity_ratio: round4(total ? counted / total : 0),
      largest_source_ratio: sources.length ? sources[0].ratio : 0,
      total_chars: total,
      copied_chars: counted,
      flagged_paragraphs: paragraphs.filter((p) => p.flagged).length,
      sources,
      paragraphs,
    };
  }

  function round4(x) {
    return Math.round(x * 10000) / 10000;
  }

  // ---- state -----------------------------------------------------------------------------------

  const DEFAULT_LIBRARY = `${HOME}/.local/share/tongwen/library.sqlite`;
  const libraries = new Map(); // library path → [Document]
  libraries.set(
    DEFAULT_LIBRARY,
    params.has('empty')
      ? []
      : [...DEMO_DOCS, ...CORPUS_DOCS, ...FILLER_DOCS].map((d, i) => documentRecord(d, T0 + i * 3600)),
  );
  const lang = params.get('lang');
  let settings = {
    library_path: DEFAULT_LIBRARY,
    threshold: 0.3,
    language: lang === 'zh' || lang === 'en' ? lang : null,
    translation: true,
  };
  const stale = new Map(); // library path → paragraphs fingerprinted by an older Tongwen
  const paragraphsOf = (docs) => docs.reduce((n, d) => n + d.paragraphs, 0);
  if (params.has('old')) stale.set(DEFAULT_LIBRARY, paragraphsOf(libraries.get(DEFAULT_LIBRARY)) || 1);
  let lastCheck = null; // {paths, libraryIds, disputed: Set of "document:paragraph:start"}
  let running = null; // {cancelled}
  const failures = new Map(); // command → the error to throw
  let dragDropListener = null;

  const library = () => libraries.get(settings.library_path);

  // ---- helpers ---------------------------------------------------------------------------------

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  /** A command error: {code, kind, message, path?, params}. */
  const commandError = (code, kind, path, cause, params = {}) => ({ code, ...errorInfo(kind, path, cause, params) });
  const cancelled = () => commandError('cancelled', 'cancelled', null, 'cancelled');
  function needsNoUpgrade() {
    const n = stale.get(settings.library_path) ?? 0;
    if (n > 0) {
      throw commandError('library', 'library_needs_upgrade', settings.library_path,
        `library ${settings.library_path} was made by an older Tongwen and must be updated first (${n} paragraphs to re-fingerprint)`,
        { stale: n });
    }
  }
  function status() {
    const docs = library();
    const n = stale.get(settings.library_path) ?? 0;
    return { path: settings.library_path, documents: docs.length, paragraphs: paragraphsOf(docs), stale_paragraphs: n, needs_upgrade: n > 0 };
  }

  let channelIds = 0;
  class Channel {
    constructor(onmessage) {
      this.id = ++channelIds;
      this.onmessage = onmessage ?? (() => {});
    }
    toJSON() {
      return `__CHANNEL__:${this.id}`;
    }
  }

  /** Rejects like Tauri when the arguments do not fit the command's signature. */
  function expectArgs(command, args, spec) {
    const given = Object.keys(args ?? {});
    for (const key of given) {
      if (!Object.hasOwn(spec, key)) throw `invalid args for command ${command}: unexpected key \`${key}\``;
    }
    for (const [key, check] of Object.entries(spec)) {
      if (!check(args?.[key])) throw `invalid args \`${key}\` for command \`${command}\``;
    }
  }
  const isPaths = (v) => Array.isArray(v) && v.every((p) => typeof p === 'string');
  const isChannel = (v) => v instanceof Channel;
  const isRatio = (v) => typeof v === 'number' && v >= 0 && v <= 1;
  const isExclude = (v) => v == null || (Array.isArray(v) && v.every((k) => ['quotes', 'references', 'own'].includes(k)));
  const isMeta = (v) => v == null || (typeof v === 'object' && (v.role == null || ['source', 'template'].includes(v.role)));
  const isOptionalText = (v) => v == null || typeof v === 'string';

  function send(channel, done, total, path) {
    channel.onmessage({ done, total, path });
  }

  function beginTask() {
    if (running) throw commandError('internal', 'internal', null, 'internal error: another task is running', { detail: 'another task is running' });
    running = { cancelled: false };
    return running;
  }

  // ---- commands --------------------------------------------------------------------------------

  function expand(paths) {
    const files = [];
    for (const path of paths) {
      const name = path.split('/').pop();
      if (!name.includes('.')) {
        if (path === CORPUS_DIR) {
          files.push(...[...CORPUS_DOCS, ...FILLER_DOCS].map((d) => d.path), ...CORPUS_FAILURES.map((f) => f.path));
          files.splice(7, 0, DEMO_DOCS[0].path.replace(DEMO_DIR + '/library', CORPUS_DIR + '/copies'));
        } else {
          for (let i = 1; i <= 24; i += 1) files.push(`${path}/paper-${String(i).padStart(2, '0')}.docx`);
          files.push(`${path}/scan-${path.length}.pdf`);
        }
      } else files.push(path);
    }
    return files;
  }

  let nextId = 1000;
  async function addOne(path, result) {
    const docs = library();
    const known = CORPUS_FAILURES.find((f) => f.path === path);
    const name = path.split('/').pop();
    // library_add's failed entries: {path, message, kind, params}.
    if (known) return result.failed.push({ ...known });
    if (/scan/i.test(name)) return result.failed.push(noTextLayer(path));
    if (!/\.(txt|docx|pdf)$/i.test(name)) {
      const what = (name.split('.').pop() || name).toLowerCase();
      return result.failed.push(errorInfo('unsupported', path, `unsupported file type: ${what}`, { what }));
    }
    const source =
      [...ALL_SOURCES.values()].find((d) => d.path === path) ??
      (path.endsWith('/copies/campus-water.txt') ? DEMO_DOCS[0] : null);
    const existing = docs.find((d) => d.path === path || (source && d.id === source.id));
    if (existing) return result.present.push({ path, existing });
    const record = source
      ? documentRecord(source, Math.floor(Date.now() / 1000))
      : documentRecord(
          { id: nextId, title: name.replace(/\.[^.]+$/, ''), path, format: name.split('.').pop().toLowerCase(), bytes: 10000 + (nextId % 7) * 3000, paragraphCount: 5 + (nextId % 30), texts: [name] },
          Math.floor(Date.now() / 1000),
        );
    if (!source) nextId += 1;
    docs.push(record);
    result.added.push(record);
  }

  const commands = {
    async library_list(args) {
      expectArgs('library_list', args, {});
      return library().map((d) => ({ ...d }));
    },

    async library_status(args) {
      expectArgs('library_status', args, {});
      return status();
    },

    async library_upgrade(args) {
      expectArgs('library_upgrade', args, { onProgress: isChannel });
      const task = beginTask();
      try {
        const total = stale.get(settings.library_path) ?? 0;
        const steps = 20;
        for (let i = 1; total > 0 && i <= steps; i += 1) {
          // One transaction in Rust: a cancel leaves the library as it was.
          if (task.cancelled) throw cancelled();
          await sleep(STEP);
          send(args.onProgress, Math.round((total * i) / steps), total, settings.library_path);
        }
        stale.delete(settings.library_path);
        return status();
      } finally {
        running = null;
      }
    },

    async library_add(args) {
      expectArgs('library_add', args, { paths: isPaths, meta: isMeta, onProgress: isChannel });
      const task = beginTask();
      try {
        const files = expand(args.paths);
        const result = { added: [], present: [], failed: [], cancelled: false };
        for (let i = 0; i < files.length; i += 1) {
          if (task.cancelled) {
            result.cancelled = true;
            break;
          }
          await sleep(STEP);
          await addOne(files[i], result);
          send(args.onProgress, i + 1, files.length, files[i]);
        }
        return result;
      } finally {
        running = null;
      }
    },

    async cancel(args) {
      expectArgs('cancel', args, {});
      if (running) running.cancelled = true;
      return null;
    },

    async library_remove(args) {
      expectArgs('library_remove', args, { ids: (v) => Array.isArray(v) && v.every(Number.isInteger) });
      const docs = library();
      const removed = docs.filter((d) => args.ids.includes(d.id));
      libraries.set(settings.library_path, docs.filter((d) => !args.ids.includes(d.id)));
      return removed;
    },

    async library_duplicates(args) {
      expectArgs('library_duplicates', args, {
        level: (v) => v == null || v === 'document' || v === 'paragraph',
        method: (v) => v == null || typeof v === 'string',
        threshold: (v) => v == null || isRatio(v),
        onProgress: isChannel,
      });
      const docs = library();
      // Documents with the same title apart from a trailing copy mark are near copies in the mock.
      const key = (d) => String(d.title).replace(/[\s(（]*(copy|副本|\d+)[)）]*$/i, '');
      const groups = new Map();
      for (const d of docs) groups.set(key(d), [...(groups.get(key(d)) ?? []), d]);
      return {
        tool: 'tongwen',
        level: args.level ?? 'document',
        method: args.method ?? 'verified',
        threshold: args.threshold ?? 0.8,
        documents: docs.length,
        groups: [...groups.values()]
          .filter((g) => g.length > 1)
          .map((g) => ({
            members: g.map((d) => ({ id: d.id, title: d.title, path: d.path })),
            pairs: g.slice(1).map((d) => ({ a: g[0].id, b: d.id, similarity: 0.97 })),
          })),
      };
    },

    async library_edit(args) {
      expectArgs('library_edit', args, { id: Number.isInteger, meta: isMeta });
      const doc = library().find((d) => d.id === args.id);
      if (!doc) throw commandError('not_found', 'no_such_document', null, `no document with id ${args.id} in the library`, { id: args.id });
      if (!String(args.meta.title ?? '').trim()) throw commandError('bad_input', 'invalid_setting', null, "invalid title: a document's title cannot be empty", { detail: 'title' });
      Object.assign(doc, {
        title: args.meta.title.trim(),
        author: args.meta.author ?? null,
        year: args.meta.year ?? null,
        role: args.meta.role ?? 'source',
        tags: [...(args.meta.tags ?? [])].sort(),
      });
      return doc;
    },

    async check(args) {
      expectArgs('check', args, { paths: isPaths, author: isOptionalText, onProgress: isChannel });
      if (!args.paths.length) throw commandError('bad_input', 'invalid_setting', null, 'invalid paths: no file to check', { detail: 'paths: no file to check' });
      needsNoUpgrade();
      const task = beginTask();
      try {
        for (let i = 0; i < args.paths.length; i += 1) {
          if (task.cancelled) throw cancelled();
          await sleep(STEP * 4);
          send(args.onProgress, i + 1, args.paths.length, args.paths[i]);
        }
        lastCheck = { paths: [...args.paths], libraryIds: new Set(library().map((d) => d.id)), disputed: new Set() };
        return buildReport(settings.threshold);
      } finally {
        running = null;
      }
    },

    async report(args) {
      expectArgs('report', args, { threshold: isRatio, exclude: isExclude });
      if (!lastCheck) throw commandError('not_found', 'internal', null, 'no check has been run yet');
      return buildReport(args.threshold, args.exclude ?? []);
    },

    async dispute_quotation(args) {
      const isIndex = (v) => Number.isInteger(v) && v >= 0;
      expectArgs('dispute_quotation', args, {
        document: isIndex, paragraph: isIndex, start: isIndex, threshold: isRatio, exclude: isExclude,
      });
      if (!lastCheck) throw commandError('not_found', 'internal', null, 'no check has been run yet');
      const path = lastCheck.paths[args.document];
      const invalid = (detail) => commandError('bad_input', 'invalid_setting', null, `invalid ${detail}`, { detail });
      if (path == null) throw invalid(`document: the check has no document ${args.document}`);
      const submission = submissionFor(path);
      if (submission.error || args.paragraph >= submission.texts.length) {
        throw invalid(`paragraph: ${path} has no paragraph ${args.paragraph}`);
      }
      // Toggled: disputing it again takes the dispute back.
      const key = `${args.document}:${args.paragraph}:${args.start}`;
      if (!lastCheck.disputed.delete(key)) lastCheck.disputed.add(key);
      return buildReport(args.threshold, args.exclude ?? []);
    },

    async export_html(args) {
      expectArgs('export_html', args, {
        path: (v) => typeof v === 'string' && v.length > 0,
        threshold: isRatio,
        lang: (v) => v === 'zh' || v === 'en',
        exclude: isExclude,
      });
      if (!lastCheck) throw commandError('not_found', 'internal', null, 'no check has been run yet');
      window.__mock.exported.push({ path: args.path, threshold: args.threshold, lang: args.lang });
      return null;
    },

    async export_pdf(args) {
      expectArgs('export_pdf', args, {
        path: (v) => typeof v === 'string' && v.length > 0,
        threshold: isRatio,
        lang: (v) => v === 'zh' || v === 'en',
        exclude: isExclude,
      });
      if (!lastCheck) throw commandError('not_found', 'internal', null, 'no check has been run yet');
      window.__mock.exported.push({ path: args.path, threshold: args.threshold, lang: args.lang, format: 'pdf' });
      return null;
    },

    async settings_get(args) {
      expectArgs('settings_get', args, {});
      return { ...settings };
    },

    async settings_set(args) {
      const isSettings = (v) =>
        v && typeof v.library_path === 'string' && isRatio(v.threshold) && [null, 'zh', 'en'].includes(v.language) &&
        [undefined, true, false].includes(v.translation);
      expectArgs('settings_set', args, { settings: isSettings });
      const next = args.settings;
      if (!next.library_path.endsWith('.sqlite')) {
        throw {
          code: 'library', kind: 'library_database', path: next.library_path,
          message: `library database ${next.library_path}: file is not a database`,
          params: { detail: 'file is not a database' },
        };
      }
      if (!libraries.has(next.library_path)) libraries.set(next.library_path, []);
      settings = {
        library_path: next.library_path, threshold: next.threshold, language: next.language,
        translation: next.translation !== false,
      };
      return { ...settings };
    },

    async demo(args) {
      expectArgs('demo', args, { onProgress: isChannel });
      needsNoUpgrade();
      const task = beginTask();
      try {
        const docs = library();
        const steps = [...DEMO_DOCS.map((d) => d.path), `${DEMO_DIR}/submissions/student-essay.txt`];
        for (let i = 0; i < steps.length; i += 1) {
          if (task.cancelled) throw cancelled();
          await sleep(STEP * 2);
          const source = DEMO_DOCS[i];
          if (source && !docs.some((d) => d.id === source.id)) docs.push(documentRecord(source, Math.floor(Date.now() / 1000)));
          send(args.onProgress, i + 1, steps.length, steps[i]);
        }
        lastCheck = { paths: [steps[steps.length - 1]], libraryIds: new Set(docs.map((d) => d.id)), disputed: new Set() };
        return buildReport(settings.threshold);
      } finally {
        running = null;
      }
    },
  };

  function buildReport(threshold, exclude = []) {
    return {
      threshold,
      method: 'verified',
      documents: lastCheck.paths.map((p, index) => documentReport(p, threshold, lastCheck.libraryIds, { index, exclude })),
    };
  }

  async function invoke(command, args) {
    window.__mock.calls.push({ command, args });
    await sleep(LATENCY);
    if (failures.has(command)) {
      const failure = failures.get(command);
      failures.delete(command);
      throw failure;
    }
    const handler = commands[command];
    if (!handler) throw `command ${command} not found`;
    // Results cross a JSON boundary in Tauri: do the same, so nothing shared leaks into the page.
    const result = await handler(args);
    return result === undefined ? null : JSON.parse(JSON.stringify(result));
  }

  // ---- plugins ---------------------------------------------------------------------------------

  async function open(options = {}) {
    window.__mock.calls.push({ command: 'dialog.open', args: options });
    await sleep(LATENCY);
    let picked = window.__mock.nextPick;
    window.__mock.nextPick = undefined;
    if (picked === undefined) {
      picked = options.directory
        ? [CORPUS_DIR]
        : [`${HOME}/essays/student-essay.txt`, `${HOME}/essays/essay-2 <img src=x onerror=alert(2)>.txt`, `${HOME}/essays/scan.pdf`];
    }
    if (picked === null) return null;
    return options.multiple ? picked : picked[0] ?? null;
  }

  async function save(options = {}) {
    window.__mock.calls.push({ command: 'dialog.save', args: options });
    await sleep(LATENCY);
    const chosen = window.__mock.nextSave;
    window.__mock.nextSave = undefined;
    if (chosen !== undefined) return chosen;
    return `${HOME}/Documents/${options.defaultPath ?? 'report.html'}`;
  }

  function emitDragDrop(payload) {
    dragDropListener?.({ event: 'tauri://drag-drop', id: 0, payload });
  }

  window.__TAURI__ = {
    core: { invoke, Channel },
    dialog: { open, save },
    webview: {
      getCurrentWebview() {
        return {
          label: 'main',
          async onDragDropEvent(handler) {
            dragDropListener = handler;
            return () => {
              if (dragDropListener === handler) dragDropListener = null;
            };
          },
        };
      },
    },
  };

  window.__mock = {
    calls: [],
    exported: [],
    nextPick: undefined,
    nextSave: undefined,
    failNext(command, error, message) {
      failures.set(command, typeof error === 'object' ? error : { code: error, message });
    },
    makeStale() {
      stale.set(settings.library_path, paragraphsOf(library()) || 1);
    },
    dragEnter(paths) {
      emitDragDrop({ type: 'enter', paths, position: { x: 400, y: 300 } });
    },
    dragLeave() {
      emitDragDrop({ type: 'leave' });
    },
    async drop(paths) {
      emitDragDrop({ type: 'enter', paths, position: { x: 400, y: 300 } });
      await sleep(50);
      emitDragDrop({ type: 'over', position: { x: 410, y: 310 } });
      await sleep(50);
      emitDragDrop({ type: 'drop', paths, position: { x: 410, y: 310 } });
    },
  };
})();
