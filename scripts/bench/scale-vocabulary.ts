// The words the scale bench's facts and questions are composed from (scale-facts.ts): people,
// places, teams, projects, companies and the things a team's memory talks about. Large enough
// that a million facts are almost all different and a question matches a small share of them.

/** Splits a `|`-separated list (kept as text so that the lists stay compact). */
const list = (text: string): readonly string[] => text.split('|');

export const PEOPLE = list(
  'Ada|Grace|Linus|Barbara|Ken|Margaret|Dennis|Frances|Noor|Tariq|Amara|Kenji|' +
    'Sofia|Mateo|Ingrid|Olu|Priya|Rahul|Mei|Lukas|Chiara|Yusuf|Elena|Kwame|Hana|' +
    'Diego|Freya|Omar|Leila|Tomasz|Aiko|Bruno|Camille|Dmitri|Esther|Farid|Greta|Hugo|' +
    'Imani|Jonas|Kaito|Lucia|Marek|Nadia|Oscar|Paula|Quentin|Rosa|Sven|Thandiwe',
);

export const CITIES = list(
  'Lisbon|Berlin|Nairobi|Osaka|Toronto|Lima|Oslo|Utrecht|Seoul|Austin|Dublin|' +
    'Krakow|Accra|Porto|Montreal|Bangalore|Sydney|Valencia|Tallinn|Denver|Cairo|' +
    'Manila|Zurich|Bogota|Helsinki|Lagos|Kyoto|Glasgow|Vienna|Santiago',
);

export const TEAMS = list(
  'payments|search|billing|identity|storage|mobile|growth|design|support|platform|' +
    'data|security|sales|legal',
);

export const PROJECTS = list(
  'Atlas|Beacon|Cobalt|Dune|Ember|Falcon|Garnet|Harbor|Iris|Juniper|Kestrel|Lumen|' +
    'Meridian|Nimbus|Orchid|Pioneer|Quartz|Raven|Sequoia|Tundra|Umbra|Vortex|Willow|' +
    'Zephyr|Aurora|Bastion|Cinder|Delta',
);

export const COMPANIES = list(
  'Acme|Globex|Initech|Umbrella|Hooli|Vandelay|Stark|Wayne|Tyrell|Cyberdyne|' +
    'Soylent|Wonka|Gringotts|Oscorp|Aperture|Massive Dynamic',
);

export const PRODUCTS = list(
  'the checkout page|the mobile app|the reporting dashboard|the public API|' +
    'the invoice export|the search bar|the login flow|the admin console|the webhooks|' +
    'the data warehouse sync|the onboarding wizard|the notification service',
);

export const ISSUES = list(
  'slow page loads|duplicate invoices|a broken password reset|missing receipts|' +
    'timeouts at peak hours|wrong currency rounding|stale search results|' +
    'a memory leak|failed card payments|garbled PDF exports|' +
    'an expired TLS certificate|lost sessions',
);

export const ARTIFACTS = list(
  'design doc|launch checklist|incident report|threat model|roadmap|budget sheet|' +
    'migration plan|runbook|pricing proposal|hiring plan|API contract|test plan',
);

export const MEETINGS = list(
  'standup|retrospective|planning session|design review|all-hands|one-on-one|' +
    'demo day|quarterly review',
);

export const TECH = list(
  'Postgres|Kafka|Redis|Rust|Kotlin|React|Terraform|SQLite|Go|Elasticsearch|gRPC|' + 'Swift',
);

export const FOODS = list('peanuts|shellfish|gluten|dairy|sesame|eggs|soy|kiwi|mustard|celery');

export const DRINKS = list('green tea|espresso|oat flat white|sparkling water|mate');

export const REASONS = list(
  'the vendor missed a deadline|legal asked for another review|load tests failed|' +
    'the design changed|two engineers were out sick|a security finding was open|' +
    'the budget was frozen|the customer asked for more time',
);

export const TASKS = list(
  'the rate limiter|the schema migration|the flaky tests|the cache invalidation|' +
    'the release pipeline|the accessibility fixes|the pricing experiment|' +
    'the audit log',
);

export const EVENTS = list(
  'customer summit|team offsite|hackathon|security conference|sales kickoff|' + 'partner workshop',
);

export const MONTHS = list(
  'January|February|March|April|May|June|July|August|September|October|November|' + 'December',
);

export const WEEKDAYS = list('Monday|Tuesday|Wednesday|Thursday|Friday');

export const REGIONS = list('eu|us|apac|latam|africa');
