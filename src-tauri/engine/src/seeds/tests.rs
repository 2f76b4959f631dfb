use super::*;

/// A small library of one field (text deduplication), so unrelated paragraphs still share its words.
const LIBRARY: [&str; 8] = [
    "局部敏感哈希把相似的文本映射为相近的指纹，网页去重系统常用它在海量数据中快速找出近似重复的网页，\
     再用海明距离判断两篇网页是否重复，从而节省存储空间并提高搜索引擎的检索质量。",
    "中文文本在计算指纹之前需要先进行分词，分词的准确程度直接影响关键词的提取效果，\
     停用词表可以去掉没有实际意义的虚词，词性标注则帮助我们只保留名词和动词作为特征。",
    "金融新闻的转载非常频繁，同一条消息经过不同网站改写后发布，编辑需要识别这些改写后的新闻，\
     否则推荐系统会向读者重复推送内容几乎相同的文章，影响用户的阅读体验。",
    "论文查重系统把学生提交的论文与文献库逐段比较，计算每个段落的相似度和全文的复制比，\
     教师根据检测报告判断论文是否存在抄袭行为，并要求学生修改重复率过高的章节。",
    "Near-duplicate detection finds documents that differ only by small edits, such as changed \
     punctuation, inserted advertisements or reordered paragraphs, and removes them before indexing.",
    "Students often paraphrase a source by replacing words with synonyms and reordering clauses, \
     which defeats exact matching but leaves most of the vocabulary of the original passage intact.",
    "舆情数据来自微博、论坛和新闻评论，数量巨大而且重复率高，去重之后分析人员才能统计话题的真实热度，\
     并及时发现突发事件的传播路径和主要观点。",
    "倒排索引记录每个特征出现在哪些文档中，查询时只需要比较共享特征的候选文档，\
     这样就避免了与库中每一篇文档逐一比较，大大缩短了检测时间。",
];

/// Library paragraph 3 with noise that keeps every noun and verb in place: its commas made semicolons
/// and one preposition (把) changed for its synonym (将), as the seeds' "noise" copies.
const EDITED: &str =
    "论文查重系统将学生提交的论文与文献库逐段比较；计算每个段落的相似度和全文的复制比；\
     教师根据检测报告判断论文是否存在抄袭行为；并要求学生修改重复率过高的章节。";

/// Library paragraph 3 with one noun changed (学生 → 同学, once).
const WORD_CHANGED: &str =
    "论文查重系统把同学提交的论文与文献库逐段比较，计算每个段落的相似度和全文的复制比，\
     教师根据检测报告判断论文是否存在抄袭行为，并要求学生修改重复率过高的章节。";

/// Library paragraph 3 rewritten: about half its words replaced.
const REWRITTEN: &str =
    "论文查重软件将学生提交的稿件同文献库分段对照，计算各段的相似度与整体比例，\
     老师依据检测报告认定是否抄袭，并让学生改写重复率过高的部分。";

/// Of the same field as paragraph 3, not a copy of anything.
const UNRELATED: &str = "学位论文的格式审查包括封面、摘要、目录和参考文献的排版，\
     图书馆在收录论文之前会核对作者的授权书，并为每篇论文分配唯一的登记号。";

fn library_index(method: Method, f: &Fingerprinter) -> (Vec<String>, SeedIndex) {
    let texts: Vec<String> = LIBRARY.iter().map(|s| s.to_string()).collect();
    let items: Vec<Item<'_>> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| Item::paragraph(t, i, texts.len()))
        .collect();
    let index = SeedIndex::build(method, f, &items);
    (texts, index)
}

/// The best library paragraph for `text` by `method`, with its similarity.
fn best(f: &Fingerprinter, index: &SeedIndex, text: &str, at: usize) -> (usize, f64) {
    let owned = text.to_string();
    let print = index.print(f, &Item::paragraph(&owned, at, LIBRARY.len()));
    let found = index.search(&print, 0.0, 1, |_| false);
    found.first().copied().unwrap_or((usize::MAX, 0.0))
}

#[test]
fn every_method_finds_an_edited_copy_and_not_an_unrelated_paragraph() {
    let f = Fingerprinter::new();
    for method in Method::ALL.into_iter().filter(|m| *m != Method::Verified) {
        let (_, index) = library_index(method, &f);
        let threshold = method.default_threshold();
        let (hit, sim) = best(&f, &index, EDITED, 3);
        assert_eq!(hit, 3, "{}: the edited copy's best source", method.name());
        assert!(
            sim >= threshold,
            "{}: edited copy at {sim} < threshold {threshold}",
            method.name()
        );
        let (_, unrelated) = best(&f, &index, UNRELATED, 3);
        assert!(
            unrelated < threshold,
            "{}: unrelated paragraph at {unrelated} >= threshold {threshold}",
            method.name()
        );
        // The exact copy is the most similar of all.
        let (hit, exact) = best(&f, &index, LIBRARY[3], 3);
        assert_eq!((hit, exact), (3, 1.0), "{}: exact copy", method.name());
    }
}

#[test]
fn an_edited_copy_is_nearer_than_a_rewrite_and_a_rewrite_nearer_than_nothing_for_word_sets() {
    let f = Fingerprinter::new();
    for method in [
        Method::Jaccard,
        Method::Containment,
        Method::Cosine,
        Method::MinhashOne,
    ] {
        let (_, index) = library_index(method, &f);
        let print = |t: &str| index.print(&f, &Item::paragraph(&t.to_string(), 3, 8));
        let source = index.item(3);
        let edited = similarity(method, &print(WORD_CHANGED), source);
        let rewritten = similarity(method, &print(REWRITTEN), source);
        let unrelated = similarity(method, &print(UNRELATED), source);
        assert!(
            edited > rewritten && rewritten > unrelated,
            "{}: {edited} > {rewritten} > {unrelated}",
            method.name()
        );
    }
}

#[test]
fn set_formulas() {
    let a = [1, 2, 3, 4];
    let b = [3, 4, 5];
    assert!((jaccard(&a, &b) - 2.0 / 5.0).abs() < 1e-12);
    assert!((containment(&a, &b) - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(jaccard(&[], &[]), 0.0);
    assert_eq!(containment(&a, &[]), 0.0);
    let (ca, na) = counts(&[1, 1, 2]);
    let (cb, nb) = counts(&[1, 2, 2]);
    // (2·1 + 1·2) / (√5 · √5)
    assert!((cosine(&ca, na, &cb, nb) - 0.8).abs() < 1e-12);
    assert_eq!(bits_similarity(0, 0b111), 1.0 - 3.0 / 64.0);
}

#[test]
fn minhash_estimates_jaccard() {
    // Two sets of 400 words sharing 200: Jaccard 200 / 600.
    let a: Vec<u64> = (0..400u64).map(|i| xxh3_64(&i.to_le_bytes())).collect();
    let b: Vec<u64> = (200..600u64).map(|i| xxh3_64(&i.to_le_bytes())).collect();
    let (a, b) = (sorted_set(a), sorted_set(b));
    let exact = jaccard(&a, &b);
    let estimate = minhash::signature_similarity(&minhash::signature(&a), &minhash::signature(&b));
    // 128 functions: standard error √(J(1−J)/128) ≈ 0.042; 0.13 is three of them.
    assert!(
        (estimate - exact).abs() < 0.13,
        "estimate {estimate}, Jaccard {exact}"
    );
    let one = jaccard(&minhash::bottom(a.clone()), &minhash::bottom(b.clone()));
    assert!(one < exact + 0.2, "bottom-k {one} vs {exact}");
    // Identical sets agree everywhere; an empty set matches nothing.
    assert_eq!(
        minhash::signature_similarity(&minhash::signature(&a), &minhash::signature(&a)),
        1.0
    );
    assert_eq!(
        minhash::signature_similarity(&minhash::signature(&[]), &minhash::signature(&[])),
        0.0
    );
}

#[test]
fn drpkp_documents_share_their_matching_paragraphs() {
    let f = Fingerprinter::new();
    let doc: Vec<String> = LIBRARY[..4].iter().map(|s| s.to_string()).collect();
    // Half the document kept, in another order, with one unrelated paragraph added.
    let copy: Vec<String> = vec![
        UNRELATED.to_string(),
        LIBRARY[3].to_string(),
        LIBRARY[1].to_string(),
    ];
    let index = SeedIndex::build(Method::Drpkp, &f, &[Item::document(&doc)]);
    let print = index.print(&f, &Item::document(&copy));
    let Print::Paragraphs(sigs) = &print else {
        panic!("drpkp prints paragraphs");
    };
    assert_eq!(sigs.len(), 3);
    // Paragraph 3 of `doc` (its last) is the middle one of `copy`, paragraph 1 (a middle one) the
    // last: each weighed by another position, so a share of one or two of `copy`'s three.
    let s = similarity(Method::Drpkp, &print, index.item(0));
    assert!((1.0 / 3.0..1.0).contains(&s), "shared share {s}");
    // The same paragraphs in the same places match whole.
    let same = index.print(&f, &Item::document(&doc));
    assert_eq!(similarity(Method::Drpkp, &same, index.item(0)), 1.0);
    // Position weighs only a document's first and last paragraphs: any middle paragraph is the same.
    let middle = drpkp::paragraph_signature(&f, LIBRARY[3], 1, 3);
    let plain = drpkp::paragraph_signature(&f, LIBRARY[3], 2, 5);
    assert_eq!(middle, plain);
}

#[test]
fn blocks_find_every_signature_within_three_bits() {
    let f = Fingerprinter::new();
    let (_, index) = library_index(Method::SimhashBlocks, &f);
    for i in 0..LIBRARY.len() {
        let Print::BitsWords(sig, words) = index.item(i).clone() else {
            panic!("simhash-blocks prints bits and words");
        };
        // Three bits flipped, one in each of three blocks: the fourth block still finds it.
        let near = Print::BitsWords(sig ^ (1 | 1 << 20 | 1 << 40), words);
        let found = index.search(&near, 0.99, 10, |_| false);
        assert!(found.iter().any(|&(j, _)| j == i), "paragraph {i}");
        // Four blocks changed and more than three bits apart: not a candidate.
        let Print::BitsWords(_, words) = index.item(i).clone() else {
            unreachable!()
        };
        let far = Print::BitsWords(sig ^ (1 | 1 << 20 | 1 << 40 | 1 << 60), words);
        assert!(index
            .search(&far, 0.0, 10, |_| false)
            .iter()
            .all(|&(j, _)| j != i));
    }
}

#[test]
fn items_without_content_words_match_nothing() {
    let f = Fingerprinter::new();
    let texts: Vec<String> = vec![
        "2024 — 12.5 (3)".into(),
        "的 了 是".into(),
        LIBRARY[0].into(),
    ];
    let items: Vec<Item<'_>> = texts.iter().map(|t| Item::paragraph(t, 0, 1)).collect();
    for method in [Method::Simhash, Method::SimhashBlocks, Method::PSimhash] {
        let index = SeedIndex::build(method, &f, &items);
        assert_eq!(index.item(0), &Print::Empty, "{}", method.name());
        assert_eq!(similarity(method, index.item(0), index.item(1)), 0.0);
        assert!(index.search(index.item(1), 0.0, 10, |_| false).is_empty());
    }
}

#[test]
fn psimhash_is_stable_and_tells_paragraphs_apart() {
    let f = Fingerprinter::new();
    let (_, a) = library_index(Method::PSimhash, &f);
    let (_, b) = library_index(Method::PSimhash, &f);
    for i in 0..LIBRARY.len() {
        assert_eq!(a.item(i), b.item(i), "same library, same signature");
    }
    // Signatures of different paragraphs differ.
    assert_ne!(a.item(0), a.item(3));
}
