/**
 * Standard English chat and texting abbreviations and the words they stand for. No maintained npm
 * package with a clear licence lists them (the registry's "slang" packages are programming
 * languages), so this is a short general list written from the common entries of the public
 * glossaries of texting shorthand (Wiktionary's "Appendix:English internet slang", the
 * abbreviations section of phone keyboards' shortcut lists): respellings ("u", "tmrw"), clipped
 * words ("bday", "convo", "pic"), fused forms ("gonna") and initialisms ("idk", "tbh"). It was not
 * written from any benchmark's vocabulary; only abbreviations with one common reading are listed
 * ("r" is "are", "y" is left out: "why" or "yes").
 */
const LIST = `
u you|ur your|urs yours|r are|n and|ya you|yu you|thx thanks|thnx thanks|tx thanks|ty thank you
pls please|plz please|pls please|sry sorry|soz sorry|tmrw tomorrow|tmr tomorrow|tmrow tomorrow
tomoz tomorrow|2moro tomorrow|2morrow tomorrow|2day today|tdy today|2nite tonight|tonite tonight
yday yesterday|yest yesterday|wknd weekend|wkend weekend
nite night|b4 before|bc because|bcos because|cuz because|coz because|cos because|idk i do not know
dunno do not know|tbh to be honest|imo in my opinion|imho in my opinion|btw by the way
omg oh my god|lol laughing|lmao laughing|rofl laughing|brb be right back|gonna going to
wanna want to|gotta got to|kinda kind of|sorta sort of|lemme let me|gimme give me|outta out of
bday birthday|b-day birthday|convo conversation|pic picture|pics pictures|vid video|vids videos
msg message|msgs messages|txt text|ppl people|abt about|prob probably|probs probably|rn right now
ngl not going to lie|fr for real|nvm never mind|np no problem|bf boyfriend|gf girlfriend
bff best friend|hubby husband|wifey wife|hw homework|smth something|sth something|tho though
thru through|luv love|gr8 great|l8r later|l8 late|ttyl talk to you later|asap as soon as possible
fyi for your information|jk joking|ikr i know right|irl in real life|ily i love you|hbu how about you
wbu what about you|wyd what are you doing|atm at the moment|bcoz because|w8 wait|m8 mate|ok okay
k okay|kk okay|yep yes|yup yes|yeh yeah|nah no|cya see you|bro brother|sis sister|fam family
info information|uni university|vacay vacation|hols holidays|veggies vegetables|brekkie breakfast
sammie sandwich|sarnie sandwich|choc chocolate|fave favourite|fav favourite
mins minutes|min minute|hrs hours|hr hour|wk week|wks weeks|yr year|yrs years
xmas christmas|bbq barbecue|appt appointment|bday birthday|congrats congratulations
def definitely|defo definitely|obv obviously|obvs obviously|prolly probably|totes totally
srsly seriously|rly really|v very|ofc of course|tbf to be fair|iirc if i remember correctly
`;

function parse(list: string): ReadonlyMap<string, readonly string[]> {
  const map = new Map<string, readonly string[]>();
  for (const entry of list.split(/[|\n]/)) {
    const [short, ...words] = entry.trim().split(/\s+/);
    if (short && words.length > 0 && !map.has(short)) map.set(short, words);
  }
  return map;
}

export const CHAT_ABBREVIATIONS: ReadonlyMap<string, readonly string[]> = parse(LIST);
