use super::*;

/// Whether each quotation of `text` is cited.
fn cited(text: &str) -> Vec<bool> {
    quotations(text, None)
        .into_iter()
        .map(|q| q.citation.is_some())
        .collect()
}

/// The cited text of the one quotation of `text`.
fn citation_text(text: &str, previous: Option<&str>) -> Option<String> {
    let q = quotations(text, previous).into_iter().next()?;
    let c = q.citation?;
    let source = if c.in_previous { previous? } else { text };
    Some(
        source
            .chars()
            .skip(c.range[0])
            .take(c.range[1] - c.range[0])
            .collect(),
    )
}

#[test]
fn numeric_and_note_citations_after_the_quotation() {
    assert_eq!(cited("他说“自由软件是一种精神”[3]，我们同意。"), [true]);
    assert_eq!(cited("“自由软件是一种精神”。［3, 5］"), [true]);
    assert_eq!(
        cited("\"Free software is a matter of liberty\" [12]."),
        [true]
    );
    assert_eq!(
        cited("\"Free software is a matter of liberty.\"³ We agree."),
        [true]
    );
    assert_eq!(cited("「自由軟體是一種精神」①"), [true]);
    assert_eq!(
        cited("\"Free software is a matter of liberty\"[^4]."),
        [true]
    );
}

#[test]
fn author_year_and_author_page_citations_in_every_position() {
    assert_eq!(cited("“自由软件是一种精神”（王明，2019）。"), [true]);
    assert_eq!(
        cited("\"Free software is a matter of liberty\" (Stallman, 2002, p. 12)."),
        [true]
    );
    assert_eq!(
        cited("\"Free software is a matter of liberty.\" (Stallman 2002: 41)"),
        [true]
    );
    assert_eq!(
        cited("\"Free software is a matter of liberty\" (Stallman 41)."),
        [true]
    );
    assert_eq!(cited("张明（2019）指出：“自由软件是一种精神。”"), [true]);
    assert_eq!(
        cited("Smith (2019) argues that \"free software is a matter of liberty\"."),
        [true]
    );
    assert_eq!(
        cited("\"Free software is a matter of liberty,\" Stallman (2002) writes."),
        [true]
    );
    assert_eq!(cited("“自由软件是一种精神”，王明（2019）如是说。"), [true]);
    assert_eq!(
        citation_text("张明（2019）指出：“自由软件是一种精神。”", None).as_deref(),
        Some("（2019）")
    );
}

#[test]
fn titles_and_named_authors_are_citations() {
    assert_eq!(
        cited("据《自由软件史》记载：“自由软件是一种精神。”"),
        [true]
    );
    assert_eq!(
        cited("《大教堂与集市》一书中写道：“足够多的眼睛让错误无处藏身。”"),
        [true]
    );
    assert_eq!(cited("正如王明所说：“自由软件是一种精神”。"), [true]);
    assert_eq!(cited("王磊对此写道：“自由软件是一种精神。”"), [true]);
    assert_eq!(cited("欧阳修曾说：“自由软件是一种精神。”"), [true]);
    assert_eq!(
        cited("As Stallman puts it, \"free software is a matter of liberty\"."),
        [true]
    );
    assert_eq!(
        cited("According to Raymond, \"given enough eyeballs, all bugs are shallow\"."),
        [true]
    );
    assert_eq!(
        cited("\"Given enough eyeballs, all bugs are shallow,\" writes Raymond."),
        [true]
    );
}

#[test]
fn quotation_marks_and_nameless_sayings_are_not_citations() {
    assert_eq!(cited("他说“自由软件是一种精神”，我们同意。"), [false]);
    assert_eq!(cited("有人说：“自由软件是一种精神。”"), [false]);
    assert_eq!(cited("人们常说“自由软件是一种精神”。"), [false]);
    assert_eq!(cited("专家指出：“自由软件是一种精神。”"), [false]);
    assert_eq!(cited("于是他说：“自由软件是一种精神。”"), [false]);
    assert_eq!(cited("俗话说：“自由软件是一种精神。”"), [false]);
    assert_eq!(cited("“自由软件是一种精神”（见上文）"), [false]);
    assert_eq!(cited("查询数据库时，“变量赋值之后要经过扩展”这样"), [false]);
    assert_eq!(
        cited("It is often said that \"free software is a matter of liberty\"."),
        [false]
    );
    assert_eq!(
        cited("People say \"free software is a matter of liberty\"."),
        [false]
    );
    assert_eq!(
        cited("Experience shows that \"free software is a matter of liberty\"."),
        [false]
    );
    assert_eq!(
        cited("As the saying goes, \"free software is a matter of liberty\"."),
        [false]
    );
    assert_eq!(
        cited("According to the manual, \"free software is a matter of liberty\"."),
        [false]
    );
    assert_eq!(
        cited("\"Free software is a matter of liberty\" (see above)."),
        [false]
    );
    assert_eq!(cited("an unclosed “quote"), Vec::<bool>::new());
    assert_eq!(quotations("a “b” c", None)[0].range, [2, 5]);
}

#[test]
fn block_quotations_take_their_citation_from_the_lead_in_or_their_last_line() {
    let block = "自由软件是一种精神，它关乎自由而不是价格。用户可以运行、复制、分发和修改软件。";
    for lead in ["王磊（2020）对此写道：", "文献[4]指出：", "正如王明所说："] {
        let q = quotations(block, Some(lead));
        assert_eq!(q.len(), 1, "{lead}");
        assert_eq!(q[0].range, [0, block.chars().count()]);
        assert!(q[0].citation.is_some_and(|c| c.in_previous), "{lead}");
    }
    let en = "Free software is a matter of liberty, not price. Users may run, copy and change it.";
    assert!(quotations(en, Some("As Smith (2019) explains:"))[0]
        .citation
        .is_some());
    // A lead-in without a source, or without the colon, does not make a block quotation.
    assert!(quotations(block, Some("有人这样说：")).is_empty());
    assert!(quotations(block, Some("王磊（2020）对此写道。")).is_empty());
    // The citation on the quotation's own last line, after its full stop.
    let apa = format!("{en} (Smith, 2019, p. 12)");
    assert_eq!(
        citation_text(&apa, None).as_deref(),
        Some("(Smith, 2019, p. 12)")
    );
    let zh = format!("{block}——王磊《自由软件史》");
    assert!(quotations(&zh, None)[0].citation.is_some());
    // An ordinary paragraph ending with its citation before the full stop is not a block quotation.
    assert!(quotations(
        &format!("{} (Smith, 2019).", en.trim_end_matches('.')),
        None
    )
    .is_empty());
}

#[test]
fn nested_marks_belong_to_the_quotation_and_a_closed_sentence_takes_no_later_name() {
    let text = "何晓东曾经写道：“当选中“飞线”时，只有飞线受影响。”后面的话。";
    let q = quotations(text, None);
    assert_eq!(q.len(), 1);
    assert_eq!(q[0].range, [8, text.chars().count() - 5]);
    assert!(q[0].citation.is_some());
    // The sentence ended inside the marks: "ERC ... reported" is the next sentence's.
    assert_eq!(
        cited("As one forum post puts it, \"hints are useful.\" ERC output is reported as errors."),
        [false]
    );
    assert_eq!(cited("\"Hints are useful,\" Garcia reported."), [true]);
}

#[test]
fn a_page_alone_cites_when_the_signal_phrase_names_the_author() {
    assert_eq!(
        cited("Okafor concedes, \"free software is a matter of liberty\" (41)."),
        [true]
    );
    assert_eq!(
        cited("Okafor concedes that \"free software is a matter of liberty\" (p. 41)."),
        [true]
    );
    assert_eq!(cited("刘洋坦承：“自由软件是一种精神”（第41页）。"), [true]);
    // A number in parentheses after a quotation nobody is named for is not a citation.
    assert_eq!(
        cited("Some concede that \"free software is a matter of liberty\" (41)."),
        [false]
    );
    assert_eq!(cited("有人坦承：“自由软件是一种精神”（41）。"), [false]);
}

#[test]
fn a_word_footnote_reference_after_the_quotation_cites_it() {
    let text = "他说“自由软件是一种精神。”我们同意。";
    // The reference stands right after the closing mark (offset 14), or after a full stop after it.
    let q = quotations_noted(text, None, &[14]);
    assert_eq!(q[0].citation.map(|c| c.range), Some([13, 14]));
    assert!(
        quotations_noted("“自由软件是一种精神”。我们同意。", None, &[12])[0]
            .citation
            .is_some()
    );
    // A note elsewhere in the paragraph does not cite the quotation.
    assert!(quotations_noted(text, None, &[17])[0].citation.is_none());
    assert!(quotations(text, None)[0].citation.is_none());
}

#[test]
fn a_pdf_note_number_glued_to_the_closing_mark_cites() {
    assert_eq!(cited("他说“自由软件是一种精神。”3我们同意。"), [true]);
    assert_eq!(
        cited("\"Free software is a matter of liberty.\"12 We agree."),
        [true]
    );
    // A number that is a word of the sentence is not a note.
    assert_eq!(cited("他说“自由软件是一种精神” 3 次。"), [false]);
    assert_eq!(cited("the \"free\"2019a edition"), [false]);
}

#[test]
fn any_text_is_read_without_a_panic() {
    // A full stop first, letters whose lower case changes length (ẞ → ß, İ → i̇), marks unclosed or
    // alone, a colon alone as the lead-in.
    for text in [
        ". Hello \"quoted\" said Smith.",
        "ẞİ says \"x\" (ẞİ 12).",
        "İẞ wrote: \"“‘«„〝＂",
        "”“",
        ".",
        "",
        "——",
        "(",
        "“a”(",
        "[^",
    ] {
        let _ = quotations(text, Some(":"));
        let _ = quotations(text, Some(text));
        let _ = quotations_noted(text, None, &[0, 1, 99]);
    }
}

#[test]
fn random_text_of_marks_names_and_numbers_is_read_without_a_panic() {
    let alphabet: Vec<char> = "“”「」‘’\"«»„〝〞＂[]［］()（）《》^.。:：,，!？ —–-0123¹②*王明说指出Smith says according to ẞİpet al"
        .chars()
        .collect();
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..50_000 {
        let len = (next() % 24) as usize;
        let text: String = (0..len)
            .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
            .collect();
        let notes: Vec<usize> = (0..(next() % 3)).map(|_| (next() % 30) as usize).collect();
        let previous: String = (0..(next() % 12) as usize)
            .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
            .chain(std::iter::once('：'))
            .collect();
        for q in quotations_noted(&text, Some(&previous), &notes) {
            let n = text.chars().count();
            assert!(
                q.range[0] <= q.range[1] && q.range[1] <= n,
                "{text:?} {q:?}"
            );
        }
    }
}
