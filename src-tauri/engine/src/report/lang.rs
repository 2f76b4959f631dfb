//! The words of the rendered reports in the reader's language (the desktop app passes its UI language;
//! the `tongwen` command takes `--lang`). JSON has no words to translate: its fields are the contract.

use serde::Serialize;

use crate::check::Method;
use crate::error::{ErrorInfo, ErrorKind, Param};

/// A report's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    /// `zh` or `en` (anything else is `None`).
    pub fn from_code(code: &str) -> Option<Lang> {
        match code {
            "en" => Some(Lang::En),
            "zh" => Some(Lang::Zh),
            _ => None,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }

    /// Pick the phrase of this language.
    pub fn pick<'a>(self, en: &'a str, zh: &'a str) -> &'a str {
        match self {
            Lang::En => en,
            Lang::Zh => zh,
        }
    }

    pub fn method(self, method: Method) -> &'static str {
        match (method, self) {
            (Method::Verified, Lang::En) => "verified spans",
            (Method::Verified, Lang::Zh) => "片段比对",
            (Method::Simhash, Lang::En) => "paragraph SimHash",
            (Method::Simhash, Lang::Zh) => "段落 SimHash",
            (Method::SimhashBlocks, Lang::En) => "SimHash blocks + word overlap (seed 001)",
            (Method::SimhashBlocks, Lang::Zh) => "SimHash 分块索引 + 词重合验证（种子 001）",
            (Method::PSimhash, Lang::En) => "P-Simhash (seed 004)",
            (Method::PSimhash, Lang::Zh) => "P-Simhash（种子 004）",
            (Method::Drpkp, Lang::En) => "DRPKP paragraph topic words (seed 000)",
            (Method::Drpkp, Lang::Zh) => "DRPKP 段落主题词（种子 000）",
            (Method::Minhash, Lang::En) => "MinHash, 128 hash functions (seed 003)",
            (Method::Minhash, Lang::Zh) => "MinHash，128 个哈希函数（种子 003）",
            (Method::MinhashOne, Lang::En) => "MinHash, one hash function (seed 003)",
            (Method::MinhashOne, Lang::Zh) => "MinHash，单哈希函数（种子 003）",
            (Method::Jaccard, Lang::En) => "Jaccard word sets (seed 003)",
            (Method::Jaccard, Lang::Zh) => "Jaccard 词集合（种子 003）",
            (Method::Containment, Lang::En) => "containment Jaccard (seed 003)",
            (Method::Containment, Lang::Zh) => "基于短文的 Jaccard（种子 003）",
            (Method::Cosine, Lang::En) => "cosine of word counts (seed 003)",
            (Method::Cosine, Lang::Zh) => "词频余弦（种子 003）",
        }
    }

    /// Why a file was not checked, as a sentence of this language.
    pub fn error(self, info: &ErrorInfo) -> String {
        if self == Lang::En {
            return info.message.clone();
        }
        let param = |k: &str| match info.params.get(k) {
            Some(Param::Number(n)) => n.to_string(),
            Some(Param::Text(t)) => t.clone(),
            None => String::new(),
        };
        let cause = match info.kind {
            ErrorKind::FileNotFound => "文件不存在".to_string(),
            ErrorKind::PermissionDenied => "没有读取权限".to_string(),
            ErrorKind::Io => format!("读取失败（{}）", param("detail")),
            ErrorKind::EmptyFile => "文件是空的".to_string(),
            ErrorKind::NoText => "文档中没有文字".to_string(),
            ErrorKind::NoParagraphs => "文档有文字，但没有可检测的段落".to_string(),
            ErrorKind::TooLarge => format!(
                "文档有 {} 字节，超过 {} 字节的上限",
                param("size"),
                param("limit")
            ),
            ErrorKind::Unsupported => format!("不支持的文件类型（{}）", param("what")),
            ErrorKind::NotAFile => "不是普通文件（管道、设备或套接字），同文只读取文件".to_string(),
            ErrorKind::Binary => "这是二进制数据，不是文本".to_string(),
            ErrorKind::UnknownEncoding => {
                "无法识别文本编码，请指定编码（如 gb18030、big5）".to_string()
            }
            ErrorKind::MalformedText => format!("文本不是有效的 {} 编码", param("encoding")),
            ErrorKind::CorruptDocx => format!("Word 文档已损坏（{}）", param("detail")),
            ErrorKind::ZipBomb => format!(
                "Word 文档解压后有 {} 字节（上限 {}），疑为压缩炸弹，已拒绝",
                param("size"),
                param("limit")
            ),
            ErrorKind::CorruptPdf => format!("PDF 已损坏（{}）", param("detail")),
            ErrorKind::EncryptedPdf => "PDF 设有打开密码；请去除密码后重试".to_string(),
            ErrorKind::NoTextLayer => "PDF 没有文字层（扫描件？）；同文不做文字识别".to_string(),
            ErrorKind::GarbledPdf => "PDF 的文字无法解码（字体缺少 Unicode 映射）".to_string(),
            ErrorKind::UnreadableFont => format!(
                "PDF 中字体 {} 的文字无法读取：该字体未嵌入，文件也未说明其字形对应的字符；请嵌入字体后重新打印",
                param("font")
            ),
            ErrorKind::LibraryDatabase => format!("文献库数据库出错（{}）", param("detail")),
            ErrorKind::LibraryTooNew => format!(
                "文献库由更新版本的同文创建（版本 {}，本版本支持 {}）",
                param("found"),
                param("supported")
            ),
            ErrorKind::LibraryMissing => "这里还没有文献库".to_string(),
            ErrorKind::NotALibrary => {
                "这不是同文的文献库（而是其他程序的数据库），文件未被改动，请另选文件".to_string()
            }
            ErrorKind::LibraryDamaged => format!(
                "文献库文件已损坏（{}），未写入任何内容：请从备份恢复或新建文献库",
                param("detail")
            ),
            ErrorKind::LibraryNeedsUpgrade => "文献库由旧版同文创建，需要先更新".to_string(),
            ErrorKind::NoSuchDocument => format!("文献库中没有编号为 {} 的文档", param("id")),
            ErrorKind::Cancelled => "已取消".to_string(),
            ErrorKind::InvalidSetting => format!("设置无效（{}）", param("detail")),
            ErrorKind::Internal => format!("内部错误（{}）", param("detail")),
            ErrorKind::ServerUnreachable => format!(
                "无法连接文献库服务器（{}）：服务器是否在运行，地址是否正确？",
                param("detail")
            ),
            ErrorKind::ServerTimeout => {
                format!("文献库服务器在 {} 秒内没有应答", param("seconds"))
            }
            ErrorKind::ServerLogin => format!(
                "服务器拒绝登录（{}）：请检查用户名和密码（PGPASSWORD 或 ~/.pgpass）",
                param("detail")
            ),
            ErrorKind::ServerTlsRequired => {
                "服务器只接受加密连接：请在地址中加上 sslmode=require".to_string()
            }
            ErrorKind::ServerTls => format!("加密连接失败（{}）", param("detail")),
            ErrorKind::NoRight => format!(
                "用户 {} 无权{}此文献库：请管理员授予 {} 角色",
                param("user"),
                match param("right").as_str() {
                    "check against" => "查询",
                    "add to or remove from" => "添加或删除",
                    _ => "创建或升级",
                },
                param("role")
            ),
        };
        match &info.path {
            Some(path) => format!("{path}：{cause}"),
            None => cause,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::extract::ExtractError;

    #[test]
    fn errors_read_in_the_report_language() {
        let info = Error::extract("论文.pdf", ExtractError::EncryptedPdf).info();
        assert_eq!(
            Lang::Zh.error(&info),
            "论文.pdf：PDF 设有打开密码；请去除密码后重试"
        );
        assert_eq!(Lang::En.error(&info), info.message);
    }
}
