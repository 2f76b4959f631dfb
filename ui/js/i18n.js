// Every string the interface shows, in Chinese and English. Nothing else in ui/ holds user-facing
// text: index.html names keys with data-i18n (text), data-i18n-placeholder, data-i18n-title and
// data-i18n-aria-label; the views call t(key, params).
//
// An entry is a string with {name} placeholders, or a function of the params where English needs a
// plural. The result is always inserted as text, never parsed as HTML.

const plural = (n, one, many) => (Number(n) === 1 ? one : many);
const integer = (n) => new Intl.NumberFormat(locale()).format(Number(n));
const paragraphsToUpdate = (p) => (Number(p.count) > 0 ? Number(p.count) : Number(p.total) || 0);

const en = {
  'app.title': 'Tongwen — offline plagiarism checker',
  'app.name': 'Tongwen',
  'app.mark': '同文',
  'app.skip': 'Skip to content',
  'tabs.label': 'Sections',
  'tab.library': 'Library',
  'tab.check': 'Check',
  'tab.class': 'Class',
  'tab.settings': 'Settings',
  'lang.zh': '中文',
  'lang.en': 'English',
  'list.separator': ' · ',

  'action.ok': 'OK',
  'action.cancel': 'Cancel',
  'action.dismiss': 'Dismiss',
  'action.save': 'Save settings',
  'action.trySample': 'Try the sample',
  'action.exportHtml': 'Save HTML report',
  'action.exportPdf': 'Save PDF report',
  'action.print': 'Print',

  'error.bad_input': 'A file could not be read',
  'error.library': 'The library could not be used',
  'error.not_found': 'Not found',
  'error.internal': 'Something went wrong',
  'error.unavailable': 'The desktop app is not available',
  'error.updateLibrary': 'Update the library',

  // One sentence per engine ErrorKind (src-tauri/engine/src/error.rs), as errorMessage() uses them:
  // {file} is the file concerned (inserted as text), the other placeholders are the error's params.
  'error.withFile': '{file}: {cause}',
  'kind.file_not_found': 'the file does not exist',
  'kind.permission_denied': 'no permission to read the file',
  'kind.io': 'the file could not be read ({detail})',
  'kind.empty_file': 'the file is empty',
  'kind.no_text': 'the document contains no text',
  'kind.no_paragraphs': 'the document has text but no paragraph Tongwen can check',
  'kind.too_large': 'the document is {size} bytes, more than the limit of {limit} bytes',
  'kind.unsupported': 'unsupported file type ({what})',
  'kind.not_a_file': 'not a regular file (a folder, a pipe, a device or a socket): Tongwen reads only files',
  'kind.binary': 'this is binary data, not text',
  'kind.not_a_library': "this is not a Tongwen library (it is another program's database); it was left as it is: choose another file",
  'kind.library_damaged': 'the library file is damaged ({detail}); nothing was written to it: restore it from a backup or start a new library',
  'kind.unknown_encoding': 'the text encoding could not be recognised; save the file as UTF-8 and try again',
  'kind.malformed_text': 'the text is not valid {encoding}',
  'kind.corrupt_docx': 'the Word document is damaged ({detail})',
  'kind.zip_bomb': 'the Word document would unpack to {size} bytes (limit {limit}); refused as a possible zip bomb',
  'kind.corrupt_pdf': 'the PDF is damaged ({detail})',
  'kind.encrypted_pdf': 'the PDF is protected by a password; remove the password and try again',
  'kind.no_text_layer': 'the PDF has no text layer (a scanned document?); Tongwen does not do OCR',
  'kind.garbled_pdf': 'the PDF’s text cannot be decoded (its fonts have no Unicode map)',
  'kind.unreadable_font': 'the PDF’s text in font {font} cannot be read: the font is not embedded and the file does not say which character each glyph is; print the document again with its fonts embedded',
  'kind.library_database': 'the library database failed ({detail})',
  'kind.library_too_new': 'the library was made by a newer Tongwen (version {found}; this one supports {supported}); update Tongwen',
  'kind.library_missing': 'there is no library here yet',
  'kind.library_needs_upgrade': 'the library was made by an older Tongwen and must be updated first',
  'kind.no_such_document': 'there is no document number {id} in the library',
  'kind.cancelled': 'cancelled',
  'kind.invalid_setting': 'invalid setting ({detail})',
  'kind.internal': 'internal error ({detail})',
  'kind.server_unreachable': 'cannot reach the library server ({detail}); is it running, and is the address right?',
  'kind.server_timeout': 'the library server did not answer within {seconds} s',
  'kind.server_login': 'the library server refused the login ({detail}); check the user name and the password (~/.pgpass)',
  'kind.server_tls_required': 'the library server accepts only encrypted connections; add ?sslmode=require to the address',
  'kind.server_tls': 'the encrypted connection to the library server failed ({detail})',
  'kind.no_right': 'user {user} may not {right} this library; ask its administrator to grant the {role} role',

  'status.busy': 'Please wait until the current task has finished.',
  'status.cancelled': 'Cancelled.',
  'status.removed': (p) => `Removed ${p.count} ${plural(p.count, 'document', 'documents')}.`,
  'status.exported': 'Report saved to {path}',
  'status.quotationDisputed': 'The quotation now counts as copied.',
  'status.citationRestored': 'The citation is accepted again: the quotation is excused.',
  'status.settingsSaved': 'Settings saved.',
  'status.libraryMoved': 'Your library was moved from {from} to {to}, where the tongwen command keeps it: the app and the command now use one library.',
  'status.upgraded': 'The library is up to date.',

  'progress.cancel': 'Cancel',
  'progress.cancelling': 'Cancelling…',
  'progress.count': '{done} of {total}',
  'task.adding': 'Adding documents',
  'task.duplicates': 'Comparing the library with itself',
  'library.findDuplicates': 'Find duplicates',
  'duplicates.method': 'Method of Find duplicates (Tongwen: the copied passages)',
  'duplicates.method.verified': 'Tongwen',
  'duplicates.none': (p) => `No near-duplicate documents among ${p.count} (at ${p.threshold}).`,
  'duplicates.found': (p) => `${p.groups} ${plural(p.groups, 'group', 'groups')} of near-duplicate documents among ${p.count} (at ${p.threshold}).`,
  'duplicates.group': 'Group {n}',
  'duplicates.keep': 'kept',
  'duplicates.removeCopy': 'Remove this copy',
  'duplicates.pair': '#{a} ~ #{b}: {similarity}',
  'task.checking': 'Checking',
  'task.demo': 'Preparing the sample',
  // Progress counts the files read, then the files compared (total: twice the number of files).
  'task.comparing': 'Reading and comparing the submissions',
  // count: the paragraphs to re-fingerprint from library_status, else the progress total once known.
  'task.upgrading': (p) => {
    const n = paragraphsToUpdate(p);
    return n > 0
      ? `Updating the library made by an older Tongwen: ${integer(n)} ${plural(n, 'paragraph', 'paragraphs')}`
      : 'Updating the library made by an older Tongwen';
  },

  'dialog.documents': 'Documents (txt, docx, pdf)',
  'dialog.chooseFiles': 'Add documents to the library',
  'dialog.chooseFolders': 'Add folders to the library',
  'dialog.chooseSubmissions': 'Choose submissions to check',
  'dialog.saveReport': 'Save the HTML report',
  'dialog.htmlReport': 'HTML report',
  'dialog.chooseLibraryFile': 'Choose the library file',
  'dialog.libraryFiles': 'Tongwen library',
  'dialog.chooseClassFolder': 'Choose the folder of a class’s submissions',
  'dialog.chooseClassFiles': 'Choose the submissions to compare with each other',
  'dialog.chooseTemplates': 'Choose the template (text every submission may contain)',
  'dialog.saveClassReport': 'Save the class report as HTML',

  'drop.library': 'Drop to add to the library',
  'drop.check': 'Drop to check these files',
  'drop.class': 'Drop to compare these submissions with each other',
  'drop.settings': 'Open Library, Check or Class to drop files',

  'library.title': 'Library',
  'library.count': (p) => `${p.n} ${plural(p.count, 'document', 'documents')}`,
  'library.filter': 'Filter by name',
  'library.filterPlaceholder': 'Filter…',
  'library.addFiles': 'Add files…',
  'library.addFolder': 'Add folder…',
  'library.remove': 'Remove',
  'library.removeCount': 'Remove ({count})',
  'library.removeTitle': 'Remove from the library?',
  'library.removeOne': '“{title}” will be removed from the library. The file itself is not touched.',
  'library.removeMany': '{count} documents will be removed from the library. The files themselves are not touched.',
  'library.select': 'Select {title}',
  'library.selectAll': 'Select all shown documents',
  'library.col.title': 'Title',
  'library.col.format': 'Format',
  'library.col.paragraphs': 'Paragraphs',
  'library.col.chars': 'Characters',
  'library.col.added': 'Added',
  'library.role.all': 'All roles',
  'library.role.source': 'Sources',
  'library.role.template': 'Templates',
  'library.templateBadge': 'template',
  'library.edit': 'Edit',
  'library.editTitle': 'Document details',
  'library.field.title': 'Title',
  'library.field.author': 'Author',
  'library.field.year': 'Year',
  'library.field.role': 'Role',
  'library.field.tags': 'Tags (separated by commas)',
  'library.roleSource': 'Source: checked against',
  'library.roleTemplate': 'Template: never counted as copying',
  'library.addAs': 'Add as',
  'library.addAsSource': 'Source',
  'library.addAsTemplate': 'Template',
  'library.addAsHint': 'Source: checked against. Template: its text is never counted as copying.',
  'status.edited': 'Saved the details of “{title}”.',
  'dialog.pdfReport': 'PDF report',
  'library.noMatch': 'No document matches “{query}”.',
  'library.emptyTitle': 'Your library is empty — add documents or try the sample',
  'library.emptyBody':
    'Submissions are checked against the documents in your library: Word (.docx), PDF with text, and plain text in any common Chinese or Unicode encoding. Everything stays on this computer.',
  'library.emptyHint': 'You can also drop files or folders onto this window.',

  'import.added': (p) => `Added ${p.count} ${plural(p.count, 'document', 'documents')}`,
  'import.present': (p) => `${p.count} already in the library`,
  'import.failed': (p) => `${p.count} could not be read`,
  'import.cancelled': 'cancelled before the end',
  'import.failedTitle': 'Files that could not be read',
  'import.presentTitle': (p) => `${p.count} ${plural(p.count, 'file has', 'files have')} content already in the library`,
  'import.sameAs': 'same content as “{title}”',

  'check.title': 'Check',
  'check.pick': 'Check files…',
  'check.document': 'Document',
  'check.docOption': '{name} — {ratio}',
  'check.docOptionFailed': '{name} — not read',
  'check.emptyTitle': 'Check a submission',
  'check.emptyBody': (p) =>
    `Choose one or more files (txt, docx, pdf) to compare them with the ${p.count} ${plural(p.count, 'document', 'documents')} in your library.`,
  'check.emptyLibrary':
    'Your library is empty, so nothing can be found yet. Add documents on the Library tab first, or try the sample.',
  'check.dropHint': 'You can also drop files onto this window.',
  'check.failedTitle': 'Submissions that could not be read',
  'check.someFailed': (p) => `${p.count} ${plural(p.count, 'submission', 'submissions')} could not be read.`,

  'report.summary': 'Summary',
  'report.printTitle': 'Tongwen plagiarism report',
  'report.printMeta': 'Printed {date} · threshold {threshold} · method {method}',
  'report.ratio': 'total similarity: all copied text',
  'report.largest': 'Largest single source',
  'report.flagged': 'Flagged paragraphs',
  'report.copied': 'Copied characters',
  'report.flaggedOf': '{flagged} of {total}',
  'report.charsOf': '{copied} of {total}',
  'report.threshold': 'Threshold',
  'report.thresholdHint':
    'A paragraph is flagged when at least this share of it is copied from one library paragraph.',
  'report.sources': 'Sources',
  'report.noSources': 'No library document reaches the threshold.',
  'report.sourceMeta': (p) => `${p.paragraphs} ${plural(p.paragraphs, 'paragraph', 'paragraphs')} · ${p.chars} characters`,
  'report.paragraphN': 'Paragraph {n}',
  'report.copiedShare': '{share} copied',
  'report.compare': 'Compare',
  'report.matchedSources': 'Matching library paragraphs',
  'report.chip': '¶ {n} · {similarity}',
  'report.translationBadge': 'translation',
  'report.translated': 'of which by translation: {share}',
  'report.passageNote': 'Copied passages below the threshold: counted in the ratio, not flagged.',
  'report.docError': 'This submission could not be read',
  'report.withoutQuotes': 'Without quotations and references',
  'report.withoutOwn': 'Without own earlier work',
  'report.exclude': 'Leave out of the similarity',
  'report.excludeQuotes': 'Cited quotations',
  'report.excludeReferences': 'References section',
  'report.excludeOwn': 'Own earlier work',
  'report.similarity': 'Similarity with these left out:',
  'report.kinds': 'Copied text by kind',
  'report.kind.copied': 'Copied',
  'report.kind.quoted': 'Quoted',
  'report.kind.reference': 'References',
  'report.kind.own': 'Own work',
  'report.kind.template': 'Template (not counted)',
  'report.chapters': 'By chapter',
  'report.untitledChapter': 'Before the first heading',
  'report.inQuotes': 'In quotation marks, but no citation: counted as copied',
  'report.citedQuotation': 'Cited quotation: excused by its citation',
  'report.disputedQuotation': 'Cited quotation, counted as copied: its citation was not accepted',
  'report.citation': 'The citation that excuses a quotation',
  'report.quotations': 'Cited quotations',
  'report.quotationCitedBy': 'cited: {citation}',
  'report.quotationDisputed': 'citation not accepted: {citation}',
  'report.dispute': 'Count as copied',
  'report.disputeHint': 'Do not accept this citation: the quotation counts as copied',
  'report.restoreCitation': 'Restore citation',
  'report.restoreHint': 'Accept this citation again: the quotation is excused',
  'check.author': 'Writer (own work)',
  'check.authorHint': 'Writer of the submissions: their own earlier work in the library is marked as own work, not as copying',

  'legend.low': 'a little copied',
  'legend.high': 'mostly copied',
  'legend.mark': 'copied passage',
  'legend.keys': 'Click a flagged paragraph to compare · j / k move between them',

  'compare.submission': 'Submission',
  'compare.library': 'Library',
  'compare.position': 'flagged paragraph {at} of {total}',
  'compare.prev': '↑ Previous',
  'compare.next': 'Next ↓',
  'compare.close': 'Close (Esc)',
  'compare.keys': 'j / k · Esc',
  'compare.showing': 'Marked: passages copied from “{title}”',
  'compare.matchMeta': 'paragraph {n} · {similarity} similar',
  'compare.crossScript': 'Traditional ↔ Simplified: the copy was converted to the other script',
  'compare.belowThreshold': 'Below the threshold: counted in the share, not flagged on its own.',
  'compare.crossLanguage':
    'Translation: this paragraph translates the source (English ↔ Chinese); matching sentences share a colour',
  'compare.noMatches': 'No library paragraph reaches the threshold.',

  'class.title': 'Class comparison',
  'class.chooseFolder': 'Choose folder…',
  'class.trySample': 'Try a sample class',
  'class.chooseFiles': 'Choose files…',
  'class.template': 'Template…',
  'class.templatesLabel': 'Template, never counted:',
  'class.templateClear': 'No template',
  'class.rerun': 'Compare again',
  'class.emptyTitle': 'Which submissions share text with each other?',
  'class.emptyBody':
    'Choose the folder holding a class’s submissions (txt, docx, pdf): Tongwen compares every submission with every other one. Nothing is added to the library and everything stays on this computer.',
  'class.dropHint': 'You can also drop a folder or files onto this window.',
  'class.templateHint':
    'Text every student was given (the assignment, a cover page) is never counted when you choose it with “Template…” first.',
  'class.summary': (p) =>
    `${p.documents} ${plural(p.documentCount, 'document', 'documents')} compared · ${p.pairs} ${plural(p.pairCount, 'pair shares', 'pairs share')} text · ${p.groups} ${plural(p.groupCount, 'group', 'groups')} at ${p.threshold}`,
  'class.unread': (p) => `${p.count} could not be read`,
  'class.usedTemplates': 'Template, not counted: {names}',
  'class.someFailed': (p) => `${p.count} ${plural(p.count, 'submission', 'submissions')} could not be read.`,
  'class.failedTitle': 'Submissions that could not be read',
  'class.threshold': 'Threshold',
  'class.thresholdHint':
    'Two submissions are paired, and grouped, when a paragraph of either one shares at least this much with the other; a pair is highlighted when this share of a whole submission is shared.',
  'class.pairs': 'Pairs sharing text',
  'class.col.a': 'A',
  'class.col.b': 'B',
  'class.col.a_ratio': 'A’s share',
  'class.col.b_ratio': 'B’s share',
  'class.col.passages': 'Passages',
  'class.noPairs': 'No two submissions share a passage.',
  'class.openPair': 'Compare {a} with {b}',
  'class.strong': 'at or above the threshold',
  'class.more': (p) => `Show ${p.count} more ${plural(p.count, 'pair', 'pairs')}`,
  'class.matrix': 'Similarity matrix',
  'class.matrixHint': 'The darker a cell, the larger the share one of the two has in common with the other. Click a cell to compare them.',
  'class.matrixMore': 'The {shown} documents with the strongest pairs are shown, of {total} in pairs.',
  'class.matrixCell': '{a} ↔ {b}: {ratio}',
  'class.groups': 'Groups',
  'class.groupsHint': 'Submissions connected by the listed pairs, whatever their shares.',
  'class.noGroups': 'No group at this threshold.',
  'class.groupHead': (p) => `Group ${p.n} · ${p.count} documents · up to ${p.ratio}`,
  'class.groupPair': '{a} ↔ {b} · {ratio}',
  'class.back': '← Back to the class',
  'class.compareTitle': '{a} ↔ {b}',
  'class.position': 'pair {at} of {total}',
  'class.prevPair': '↑ Previous pair',
  'class.nextPair': 'Next pair ↓',
  'class.sideA': 'A',
  'class.sideB': 'B',
  'class.share': (p) => `${p.share} shared with ${p.other} (${p.chars} ${plural(p.count, 'character', 'characters')})`,
  'class.matchHead': 'A ¶ {a} ↔ B ¶ {b}',
  'class.matchSimilarity': '{similarity} of A’s paragraph',
  'class.noMatches': 'These two submissions share no passage.',

  'settings.title': 'Settings',
  'settings.language': 'Interface language',
  'settings.languageSystem': 'Follow the system',
  'settings.threshold': 'Default threshold for new checks',
  'settings.thresholdHint':
    'The share of a paragraph that must be copied from one library paragraph before it is flagged. The slider in a report changes it for that report only.',
  'settings.translation': 'Look for copies by translation (Chinese ↔ English)',
  'settings.translationHint':
    'Also finds paragraphs translated from a library document in the other language. Applies from the next check.',
  'settings.libraryPath': 'Library location',
  'settings.libraryHint': 'The library is one SQLite file. Choose another library file to open it, or type the path of a new file to create a library there.',
  'settings.browse': 'Choose file…',
  'settings.libraryKind': 'Library',
  'settings.libraryLocal': 'Local library (a file on this computer)',
  'settings.libraryShared': 'Shared library (PostgreSQL)',
  'settings.libraryAddress': 'Server address',
  'settings.sharedHint': 'The school\'s library on a PostgreSQL server, e.g. postgres://teacher@library.school.example/tongwen?sslmode=require. The password is read from ~/.pgpass (a line host:port:database:user:password that only you may read) or PGPASSWORD; it is never stored in Tongwen\'s settings. Teachers with the tongwen_reader role may check; tongwen_writer may also add and remove.',
  'settings.addressRequired': 'Give the server\'s address, postgres://user@host/database',
  'settings.pathRequired': 'Please enter where the library file should be.',
};

const zh = {
  'app.title': '同文 — 离线查重',
  'app.name': 'Tongwen',
  'app.mark': '同文',
  'app.skip': '跳到正文',
  'tabs.label': '栏目',
  'tab.library': '文库',
  'tab.check': '查重',
  'tab.class': '班级互查',
  'tab.settings': '设置',
  'lang.zh': '中文',
  'lang.en': 'English',
  'list.separator': '；',

  'action.ok': '确定',
  'action.cancel': '取消',
  'action.dismiss': '关闭',
  'action.save': '保存设置',
  'action.trySample': '试用示例',
  'action.exportHtml': '保存 HTML 报告',
  'action.exportPdf': '保存 PDF 报告',
  'action.print': '打印',

  'error.bad_input': '无法读取文件',
  'error.library': '文库出错',
  'error.not_found': '未找到',
  'error.internal': '出现错误',
  'error.unavailable': '桌面程序不可用',
  'error.updateLibrary': '更新文库',

  'error.withFile': '{file}：{cause}',
  'kind.file_not_found': '文件不存在',
  'kind.permission_denied': '没有读取权限',
  'kind.io': '读取失败（{detail}）',
  'kind.empty_file': '文件是空的',
  'kind.no_text': '文档中没有文字',
  'kind.no_paragraphs': '文档有文字，但没有可检测的段落',
  'kind.too_large': '文档有 {size} 字节，超过 {limit} 字节的上限',
  'kind.unsupported': '不支持的文件类型（{what}）',
  'kind.not_a_file': '不是普通文件（文件夹、管道、设备或套接字），同文只读取文件',
  'kind.binary': '这是二进制数据，不是文本',
  'kind.not_a_library': '这不是同文的文献库（而是其他程序的数据库），文件未被改动，请另选文件',
  'kind.library_damaged': '文献库文件已损坏（{detail}），未写入任何内容：请从备份恢复或新建文献库',
  'kind.unknown_encoding': '无法识别文本编码；请将文件另存为 UTF-8 后重试',
  'kind.malformed_text': '文本不是有效的 {encoding} 编码',
  'kind.corrupt_docx': 'Word 文档已损坏（{detail}）',
  'kind.zip_bomb': 'Word 文档解压后有 {size} 字节（上限 {limit}），疑为压缩炸弹，已拒绝',
  'kind.corrupt_pdf': 'PDF 已损坏（{detail}）',
  'kind.encrypted_pdf': 'PDF 设有打开密码；请去除密码后重试',
  'kind.no_text_layer': 'PDF 没有文字层（扫描件？）；同文不做文字识别',
  'kind.garbled_pdf': 'PDF 的文字无法解码（字体缺少 Unicode 映射）',
  'kind.unreadable_font': 'PDF 中字体 {font} 的文字无法读取：该字体未嵌入，文件也未说明其字形对应的字符；请嵌入字体后重新打印',
  'kind.library_database': '文库数据库出错（{detail}）',
  'kind.library_too_new': '文库由更新版本的同文创建（版本 {found}，本版本支持 {supported}）；请更新同文',
  'kind.library_missing': '这里还没有文库',
  'kind.library_needs_upgrade': '文库由旧版同文创建，需要先更新',
  'kind.no_such_document': '文库中没有编号为 {id} 的文档',
  'kind.cancelled': '已取消',
  'kind.invalid_setting': '设置无效（{detail}）',
  'kind.internal': '内部错误（{detail}）',
  'kind.server_unreachable': '无法连接文库服务器（{detail}）：服务器是否在运行，地址是否正确？',
  'kind.server_timeout': '文库服务器在 {seconds} 秒内没有应答',
  'kind.server_login': '文库服务器拒绝登录（{detail}）：请检查用户名和密码（~/.pgpass）',
  'kind.server_tls_required': '文库服务器只接受加密连接：请在地址后加上 ?sslmode=require',
  'kind.server_tls': '与文库服务器的加密连接失败（{detail}）',
  'kind.no_right': '用户 {user} 没有此文库的相应权限（{right}）：请管理员授予 {role} 角色',

  'status.busy': '请等待当前任务完成。',
  'status.cancelled': '已取消。',
  'status.removed': '已移除 {count} 篇文档。',
  'status.exported': '报告已保存到 {path}',
  'status.quotationDisputed': '该引用现在计为复制。',
  'status.citationRestored': '已恢复该引用的出处：不计为复制。',
  'status.settingsSaved': '设置已保存。',
  'status.libraryMoved': '文库已从 {from} 移到 {to}（tongwen 命令使用的位置）：应用和命令现在使用同一个文库。',
  'status.upgraded': '文库已更新。',

  'progress.cancel': '取消',
  'progress.cancelling': '正在取消…',
  'progress.count': '{done} / {total}',
  'task.adding': '正在添加文档',
  'task.duplicates': '正在比对文库中的文档',
  'library.findDuplicates': '查找重复',
  'duplicates.method': '查找重复所用的方法（同文：按复制片段）',
  'duplicates.method.verified': '同文',
  'duplicates.none': '{count} 篇文档中没有近似重复（阈值 {threshold}）。',
  'duplicates.found': '{count} 篇文档中有 {groups} 组近似重复（阈值 {threshold}）。',
  'duplicates.group': '第 {n} 组',
  'duplicates.keep': '保留',
  'duplicates.removeCopy': '移除这一份',
  'duplicates.pair': '#{a} ~ #{b}：{similarity}',
  'task.checking': '正在查重',
  'task.demo': '正在准备示例',
  'task.comparing': '正在读取并互相比对文档',
  'task.upgrading': (p) => {
    const n = paragraphsToUpdate(p);
    return n > 0 ? `正在更新旧版同文创建的文库：${integer(n)} 个段落` : '正在更新旧版同文创建的文库';
  },

  'dialog.documents': '文档（txt、docx、pdf）',
  'dialog.chooseFiles': '向文库添加文档',
  'dialog.chooseFolders': '向文库添加文件夹',
  'dialog.chooseSubmissions': '选择要查重的文档',
  'dialog.saveReport': '保存 HTML 报告',
  'dialog.htmlReport': 'HTML 报告',
  'dialog.chooseLibraryFile': '选择文库文件',
  'dialog.libraryFiles': '同文文库',
  'dialog.chooseClassFolder': '选择存放全班作业的文件夹',
  'dialog.chooseClassFiles': '选择要互相比对的文档',
  'dialog.chooseTemplates': '选择模板（每份作业都可以包含的文字）',
  'dialog.saveClassReport': '将班级互查报告保存为 HTML',

  'drop.library': '松开即可添加到文库',
  'drop.check': '松开即可对这些文件查重',
  'drop.class': '松开即可对这些文档进行互查',
  'drop.settings': '请先打开“文库”“查重”或“班级互查”再拖入文件',

  'library.title': '文库',
  'library.count': '共 {n} 篇文档',
  'library.filter': '按名称筛选',
  'library.filterPlaceholder': '筛选…',
  'library.addFiles': '添加文件…',
  'library.addFolder': '添加文件夹…',
  'library.remove': '移除',
  'library.removeCount': '移除（{count}）',
  'library.removeTitle': '从文库中移除？',
  'library.removeOne': '将从文库中移除“{title}”。原文件不会被改动。',
  'library.removeMany': '将从文库中移除 {count} 篇文档。原文件不会被改动。',
  'library.select': '选择 {title}',
  'library.selectAll': '选择全部显示的文档',
  'library.col.title': '标题',
  'library.col.format': '格式',
  'library.col.paragraphs': '段落',
  'library.col.chars': '字数',
  'library.col.added': '添加时间',
  'library.role.all': '全部角色',
  'library.role.source': '比对来源',
  'library.role.template': '模板',
  'library.templateBadge': '模板',
  'library.edit': '编辑',
  'library.editTitle': '文档信息',
  'library.field.title': '标题',
  'library.field.author': '作者',
  'library.field.year': '年份',
  'library.field.role': '角色',
  'library.field.tags': '标签（用逗号分隔）',
  'library.roleSource': '比对来源：作为比对对象',
  'library.roleTemplate': '模板：其文字不计为复制',
  'library.addAs': '添加为',
  'library.addAsSource': '比对来源',
  'library.addAsTemplate': '模板',
  'library.addAsHint': '比对来源：作为比对对象。模板：其文字不计为复制。',
  'status.edited': '已保存“{title}”的信息。',
  'dialog.pdfReport': 'PDF 报告',
  'library.noMatch': '没有名称包含“{query}”的文档。',
  'library.emptyTitle': '文库是空的——请添加文档，或试用示例',
  'library.emptyBody':
    '待查文档将与文库中的文档比对。支持 Word（.docx）、带文字层的 PDF，以及常见中文编码或 Unicode 编码的纯文本。所有内容都只保存在这台电脑上。',
  'library.emptyHint': '也可以把文件或文件夹直接拖到本窗口。',

  'import.added': '已添加 {count} 篇文档',
  'import.present': '{count} 篇已在文库中',
  'import.failed': '{count} 个文件无法读取',
  'import.cancelled': '添加中途已取消',
  'import.failedTitle': '无法读取的文件',
  'import.presentTitle': '{count} 个文件的内容已在文库中',
  'import.sameAs': '与“{title}”内容相同',

  'check.title': '查重',
  'check.pick': '选择文件查重…',
  'check.document': '文档',
  'check.docOption': '{name}——{ratio}',
  'check.docOptionFailed': '{name}——无法读取',
  'check.emptyTitle': '检查一篇文档',
  'check.emptyBody': '选择一个或多个文件（txt、docx、pdf），与文库中的 {count} 篇文档比对。',
  'check.emptyLibrary': '文库还是空的，因此查不出任何重复。请先在“文库”中添加文档，或试用示例。',
  'check.dropHint': '也可以把文件直接拖到本窗口。',
  'check.failedTitle': '无法读取的待查文档',
  'check.someFailed': '{count} 篇待查文档无法读取。',

  'report.summary': '概要',
  'report.printTitle': '同文查重报告',
  'report.printMeta': '打印于 {date} · 阈值 {threshold} · 方法 {method}',
  'report.ratio': '总文字复制比',
  'report.largest': '单篇最大复制比',
  'report.flagged': '疑似抄袭段落',
  'report.copied': '复制字数',
  'report.flaggedOf': '{flagged} / {total}',
  'report.charsOf': '{copied} / {total}',
  'report.threshold': '阈值',
  'report.thresholdHint': '一个段落中至少有这一比例复制自同一文库段落时，标记为疑似抄袭。',
  'report.sources': '来源',
  'report.noSources': '没有文库文档达到阈值。',
  'report.sourceMeta': '{paragraphs} 段 · {chars} 字',
  'report.paragraphN': '第 {n} 段',
  'report.copiedShare': '复制 {share}',
  'report.compare': '对照',
  'report.matchedSources': '相似的文库段落',
  'report.chip': '第 {n} 段 · {similarity}',
  'report.translationBadge': '翻译',
  'report.translated': '其中翻译：{share}',
  'report.passageNote': '低于阈值的复制片段：计入复制比，不标红。',
  'report.docError': '无法读取这篇待查文档',
  'report.withoutQuotes': '去除引用文献复制比',
  'report.withoutOwn': '去除本人文献复制比',
  'report.exclude': '从复制比中去除',
  'report.excludeQuotes': '有出处的引用',
  'report.excludeReferences': '参考文献部分',
  'report.excludeOwn': '本人已发表文献',
  'report.similarity': '去除所选后的复制比：',
  'report.kinds': '按类别的复制文字',
  'report.kind.copied': '复制',
  'report.kind.quoted': '引用',
  'report.kind.reference': '参考文献',
  'report.kind.own': '本人文献',
  'report.kind.template': '模板（不计入）',
  'report.chapters': '各章节复制比',
  'report.untitledChapter': '首个标题之前',
  'report.inQuotes': '在引号中但没有出处：按复制计算',
  'report.citedQuotation': '已引用：因其引文出处不计为复制',
  'report.disputedQuotation': '已引用但出处不予认可：计为复制',
  'report.citation': '引文出处：因此该引用不计为复制',
  'report.quotations': '有出处的引用',
  'report.quotationCitedBy': '出处：{citation}',
  'report.quotationDisputed': '出处不予认可：{citation}',
  'report.dispute': '计为复制',
  'report.disputeHint': '不认可这一出处：该引用计为复制',
  'report.restoreCitation': '恢复引用',
  'report.restoreHint': '重新认可这一出处：该引用不计为复制',
  'check.author': '作者（本人文献）',
  'check.authorHint': '提交文档的作者：文库中此人早先的文献标为本人文献，不算作复制',

  'legend.low': '少量复制',
  'legend.high': '大部分复制',
  'legend.mark': '复制片段',
  'legend.keys': '点击标记的段落进行对照 · j / k 切换',

  'compare.submission': '待查文档',
  'compare.library': '文库',
  'compare.position': '第 {at} / {total} 个疑似段落',
  'compare.prev': '↑ 上一段',
  'compare.next': '下一段 ↓',
  'compare.close': '关闭（Esc）',
  'compare.keys': 'j / k · Esc',
  'compare.showing': '已标出：复制自“{title}”的片段',
  'compare.matchMeta': '第 {n} 段 · 相似度 {similarity}',
  'compare.crossScript': '繁简转换：抄袭时转换了字体（繁体 ↔ 简体）',
  'compare.belowThreshold': '低于阈值：计入复制比例，但本身不标记。',
  'compare.crossLanguage': '翻译抄袭：本段译自来源（中英互译），对应的句子颜色相同',
  'compare.noMatches': '没有文库段落达到阈值。',

  'class.title': '班级互查',
  'class.chooseFolder': '选择文件夹…',
  'class.trySample': '试用示例班级',
  'class.chooseFiles': '选择文件…',
  'class.template': '模板…',
  'class.templatesLabel': '模板（不计入）：',
  'class.templateClear': '不用模板',
  'class.rerun': '重新比对',
  'class.emptyTitle': '哪些作业之间有相同的文字？',
  'class.emptyBody':
    '选择存放全班作业（txt、docx、pdf）的文件夹，同文会把每份作业与其余每一份互相比对。作业不会加入文库，所有内容都只保存在这台电脑上。',
  'class.dropHint': '也可以把文件夹或文件直接拖到本窗口。',
  'class.templateHint': '先用“模板…”选择发给每位学生的文字（题目、封面等），这些文字不会被计入。',
  'class.summary': '已比对 {documents} 份文档 · {pairs} 对有重合 · 阈值 {threshold} 下 {groups} 个群组',
  'class.unread': '{count} 份无法读取',
  'class.usedTemplates': '模板（不计入）：{names}',
  'class.someFailed': '{count} 份作业无法读取。',
  'class.failedTitle': '无法读取的作业',
  'class.threshold': '阈值',
  'class.thresholdHint': '任一份作业中有一段与另一份的重合达到该值时，这两份作业列为一对并归入同一群组；整份作业的重合比例达到该值时，这一对突出显示。',
  'class.pairs': '有重合的文档对',
  'class.col.a': 'A',
  'class.col.b': 'B',
  'class.col.a_ratio': 'A 的重合比例',
  'class.col.b_ratio': 'B 的重合比例',
  'class.col.passages': '片段数',
  'class.noPairs': '没有任何两份作业有相同的片段。',
  'class.openPair': '对照 {a} 与 {b}',
  'class.strong': '达到阈值',
  'class.more': '再显示 {count} 对',
  'class.matrix': '相似度矩阵',
  'class.matrixHint': '颜色越深，两份作业中一方与另一方重合的比例越大。点击格子即可对照。',
  'class.matrixMore': '只显示重合最多的 {shown} 份文档（共 {total} 份有重合）。',
  'class.matrixCell': '{a} ↔ {b}：{ratio}',
  'class.groups': '群组',
  'class.groupsHint': '由列出的文档对连接起来的作业，不论重合比例大小。',
  'class.noGroups': '此阈值下没有群组。',
  'class.groupHead': '第 {n} 组 · {count} 份文档 · 最高 {ratio}',
  'class.groupPair': '{a} ↔ {b} · {ratio}',
  'class.back': '← 返回班级互查',
  'class.compareTitle': '{a} ↔ {b}',
  'class.position': '第 {at} / {total} 对',
  'class.prevPair': '↑ 上一对',
  'class.nextPair': '下一对 ↓',
  'class.sideA': 'A',
  'class.sideB': 'B',
  'class.share': '{share} 与 {other} 重合（{chars} 字）',
  'class.matchHead': 'A 第 {a} 段 ↔ B 第 {b} 段',
  'class.matchSimilarity': '占 A 段的 {similarity}',
  'class.noMatches': '这两份作业没有相同的片段。',

  'settings.title': '设置',
  'settings.language': '界面语言',
  'settings.languageSystem': '跟随系统',
  'settings.threshold': '新查重的默认阈值',
  'settings.thresholdHint': '段落中复制自同一文库段落的比例达到该值时标记为疑似抄袭。报告中的滑块只改变该报告。',
  'settings.translation': '查找翻译抄袭（中英互译）',
  'settings.translationHint': '同时查找译自另一种语言文库文档的段落。从下一次查重起生效。',
  'settings.libraryPath': '文库位置',
  'settings.libraryHint': '文库是一个 SQLite 文件。选择另一个文库文件即打开该文库；输入一个新文件的路径则在那里新建文库。',
  'settings.browse': '选择文件…',
  'settings.libraryKind': '文库',
  'settings.libraryLocal': '本地文库（本机上的文件）',
  'settings.libraryShared': '共享文库（PostgreSQL）',
  'settings.libraryAddress': '服务器地址',
  'settings.sharedHint': '学校放在 PostgreSQL 服务器上的文库，例如 postgres://teacher@library.school.example/tongwen?sslmode=require。密码从 ~/.pgpass（一行 主机:端口:数据库:用户:密码，仅本人可读）或 PGPASSWORD 读取，不保存在同文的设置中。有 tongwen_reader 角色的教师可以检测，有 tongwen_writer 角色的还可以添加和删除文档。',
  'settings.addressRequired': '请填写服务器地址：postgres://用户@主机/数据库',
  'settings.pathRequired': '请填写文库文件的位置。',
};

const TABLES = { en, zh };
const LOCALES = { en: 'en', zh: 'zh-CN' };

let current = 'en';

/** "zh" when the system's first preferred language is Chinese, otherwise "en". */
export function detectLanguage(nav = globalThis.navigator) {
  const first = nav?.languages?.[0] ?? nav?.language ?? '';
  return /^zh\b/i.test(first) ? 'zh' : 'en';
}

export function setLanguage(lang) {
  current = Object.hasOwn(TABLES, lang) ? lang : 'en';
  document.documentElement.lang = LOCALES[current];
}

export function language() {
  return current;
}

/** The BCP 47 locale for numbers and dates. */
export function locale() {
  return LOCALES[current];
}

/** The text for `key` in the current language, with {placeholders} filled from `params`. */
export function t(key, params = {}) {
  const entry = Object.hasOwn(TABLES[current], key) ? TABLES[current][key] : en[key];
  if (entry === undefined) {
    console.warn(`i18n: no text for ${key}`);
    return key;
  }
  if (typeof entry === 'function') return entry(params);
  return entry.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

/** Fills every data-i18n* element under `root` in the current language. */
export function applyI18n(root = document) {
  for (const node of root.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll('[data-i18n-placeholder]')) node.placeholder = t(node.dataset.i18nPlaceholder);
  for (const node of root.querySelectorAll('[data-i18n-title]')) node.title = t(node.dataset.i18nTitle);
  for (const node of root.querySelectorAll('[data-i18n-aria-label]')) {
    node.setAttribute('aria-label', t(node.dataset.i18nAriaLabel));
  }
  if (root === document) document.title = t('app.title');
}

/** The keys of each table, for the development check that both languages are complete. */
export function tableKeys() {
  return { en: Object.keys(en), zh: Object.keys(zh) };
}

// ---- errors ---------------------------------------------------------------------------------------

// The params each kind's sentence needs besides `detail` (see `Error::info()` in the engine). Without
// them the sentence cannot be said, and the English `message` is shown instead.
const REQUIRED_PARAMS = {
  too_large: ['size', 'limit'],
  zip_bomb: ['size', 'limit'],
  unsupported: ['what'],
  malformed_text: ['encoding'],
  library_too_new: ['found', 'supported'],
  no_such_document: ['id'],
};
const NUMBER_PARAMS = new Set(['size', 'limit']);

/**
 * The sentence for an error in the current language. `err` is any error the back end sends: a command
 * error `{code, kind, message, path?, params}`, a failed entry of `library_add` `{path, message, kind,
 * params}`, or a report's `error_info` `{kind, message, path?, params}`. An unknown kind, or an error
 * without one (an IPC failure, an error of the page itself), falls back to its `message`.
 * With `withFile: false` the file is left out, for lists that show the file beside the reason.
 * The result is plain text: callers insert it with textContent (a file name may hold markup).
 */
export function errorMessage(err, { withFile = true } = {}) {
  if (err == null) return '';
  if (typeof err !== 'object') return String(err);
  const fallback = String(err.message ?? err.code ?? '');
  const kind = typeof err.kind === 'string' ? err.kind : '';
  const key = `kind.${kind}`;
  if (!kind || !Object.hasOwn(en, key)) return fallback;
  const raw = err.params && typeof err.params === 'object' ? err.params : {};
  const params = {};
  for (const [name, value] of Object.entries(raw)) {
    params[name] =
      NUMBER_PARAMS.has(name) && typeof value === 'number'
        ? new Intl.NumberFormat(locale()).format(value)
        : String(value ?? '');
  }
  if ((REQUIRED_PARAMS[kind] ?? []).some((name) => !Object.hasOwn(params, name))) return fallback;
  // Errors of the app itself (not of the engine) carry their explanation in `message` only.
  if (!params.detail) params.detail = fallback;
  const cause = t(key, params);
  const file = typeof err.path === 'string' && err.path ? err.path : '';
  return withFile && file ? t('error.withFile', { file, cause }) : cause;
}
