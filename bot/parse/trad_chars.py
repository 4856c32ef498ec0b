"""Traditional → Simplified for every character whose Simplified form the parser's words use (s37, issue 23).

:data:`bot.parse.spelling_tables.TRAD_TO_SIMP` translates the ~80 characters of the commonest words (張, 訓練,
顯存 …); this table adds the others a Traditional question writes ('節點' nodes, '推論' inference, '記憶體'
memory, '資料 5 萬筆' 50K records …): the one-to-one pairs of OpenCC's ``TSCharacters.txt`` (OpenCC 1.x,
Apache-2.0; the ``opencc-purepy`` 1.5.0 wheel's ``dicts/TSCharacters.txt``, first Simplified form of each)
whose Simplified character occurs in ``bot/parse``'s source, less the characters the parser's own words use
as they are. Generated once (tests/test_s37_fixa.py checks the pairs stay one-to-one and outside the words).

Two strings and one character class, not a dict: a few kB of memory (the idle bot's budget,
tests/test_warmup.py); a text with none of them (every Simplified one) makes no Python call (the match
function runs per match).

A question written in Traditional characters also uses Taiwan's and Hong Kong's words: once a text is seen
to be Traditional, :data:`TW_WORDS` puts the mainland word the parser reads in their place ('推論' → 推理
inference, '記憶體' → 内存 memory, '資料' → 数据 data, '使用者' → 用户 users, '伺服器' → 服务器 server,
'顯示卡' → 显卡, and '筆' counting records after a number: '5 萬筆' → '5 万条').
"""

from __future__ import annotations

import re

from bot.parse.regex import compile_pattern

TRAD = (
    "佈佔來侖侷係俬倉們偉傢傳僅優兒凍別剛劃動勵協卻卽厤員唸啓啟喫嘗噹嚐嚮國圖團埰執報場壓奬學"
    "寀寫寬專導峯崑崙師帶幫庫強彆彔後徑復態慮戲拏拚掛採換撐擇擴敎敗斷於暫曆曏書査業構標檔檢檯"
    "歷氣沒沖測湧準溫滿漢漲無煉熱爲爾牠狀獎獨現璣環產産畫畵療監礎礦禮種稱積筆箇節糰紀紅純終組"
    "結給統經綫維綴編緩緻縮總織繫繼纍纔羣習聽腳舊菓著蔘薦蘋處號衕衝裏補裝裡製複覈見規視覺觀計"
    "記訪註証評詢試誌認説誰課請論諮謝證識譜譯變讓負貫責貴買質趕跡蹟躍軌較輯輸轉辦迴逕進遊運過"
    "達適遲選邊邏郵醫釋鈡錄錯録錶鍊鍾鎧鏈鐘門閉開閑閒間閤闆闇關陞隊階隨隻雖雙雜離雲電靈韆頂項"
    "順須頓領頻顆類風颱飆餘餵餾駝驅驍驗驟髮鬚鯤鵬鵲麪麫麵麽齊齣龍"
    "憶"  # 記憶體 (TW_WORDS)
)
SIMP = (
    "布占来仑局系私仓们伟家传仅优儿冻别刚划动励协却即历员念启启吃尝当尝向国图团采执报场压奖学"
    "采写宽专导峰昆仑师带帮库强别录后径复态虑戏拿拼挂采换撑择扩教败断于暂历向书查业构标档检台"
    "历气没冲测涌准温满汉涨无炼热为尔它状奖独现玑环产产画画疗监础矿礼种称积笔个节团纪红纯终组"
    "结给统经线维缀编缓致缩总织系继累才群习听脚旧果着参荐苹处号同冲里补装里制复核见规视觉观计"
    "记访注证评询试志认说谁课请论咨谢证识谱译变让负贯责贵买质赶迹迹跃轨较辑输转办回径进游运过"
    "达适迟选边逻邮医释钟录错录表炼钟铠链钟门闭开闲闲间合板暗关升队阶随只虽双杂离云电灵千顶项"
    "顺须顿领频颗类风台飙余喂馏驼驱骁验骤发须鲲鹏鹊面面面么齐出龙"
    "忆"
)
TRAD_RE = compile_pattern("[" + TRAD + "]")
"""Any character of :data:`TRAD`."""


def simplified_char(m: re.Match[str]) -> str:
    """The Simplified form of the character ``m`` matched (one of :data:`TRAD`)."""
    return SIMP[TRAD.index(m.group())]


TW_WORDS = {
    "显示记忆体": "显存",
    "记忆体": "内存",
    "推论": "推理",
    "资料": "数据",
    "使用者": "用户",
    "伺服器": "服务器",
    "显示卡": "显卡",
}
"""Taiwan / Hong Kong words (as Simplified characters) → the mainland word the parser reads."""
RECORDS_RE = compile_pattern(r"(?<=[\d万千亿kK])(\s*)笔")
"""'筆' counting records after a number ('5 萬筆資料')."""


def tw_words(s: str) -> str:
    """``s`` (a Traditional text, its characters made Simplified) with :data:`TW_WORDS` in mainland words."""
    for word, mainland in TW_WORDS.items():
        s = s.replace(word, mainland) if word in s else s
    return RECORDS_RE.sub(r"\1条", s) if "笔" in s else s
