package dev.crawler.demo;

import java.util.SplittableRandom;

/** Words for the demo pages' text: the vocabulary of software documentation, lower-case ASCII. */
final class Vocabulary {
  private Vocabulary() {}

  private static final String[] WORDS = (
      "the a an of to in for on with by from and or as is are be can will must should may each every "
      + "crawler fetch page host queue frontier robots sitemap link url request response header status "
      + "server client thread worker delay politeness scope seed depth budget filter bloom bit hash "
      + "store disk memory cache batch record archive warc log line stats counter timeout retry redirect "
      + "parse html document element attribute anchor text charset encoding body content type length "
      + "config key value default option setting file path directory section table column row index "
      + "start stop pause resume restart recover crash flush sync write read open close lock order "
      + "first next last before after while when until unless only also then more less most least "
      + "fast slow small large new old same other every many few simple strict careful polite valid "
      + "returns accepts rejects skips keeps drops sends waits counts reports checks adds removes "
      + "network connection socket address port name domain registry protocol version release build "
      + "test case example sample guide tutorial reference note warning tip error exception failure")
      .split(" ");

  private static final String[] TITLE_VERBS = {"Configuring", "Understanding", "Tuning", "Running", "Monitoring",
      "Testing", "Scaling", "Debugging", "Securing", "Deploying", "Measuring", "Recovering"};

  private static final String[] TITLE_NOUNS = {"the frontier", "robots.txt rules", "the URL-seen filter",
      "fetch timeouts", "crawl delays", "host queues", "WARC output", "the crawl log", "redirect handling",
      "sitemaps", "link extraction", "scope rules", "page budgets", "error back-off", "the stats line",
      "normalization", "character sets", "content types", "connection pools", "restarts"};

  /**
   * Sentences made once, from a fixed seed: a page's text is picked from these rather than
   * built word by word, which halves the cost of serving a page (text is most of
   * its bytes). 4,096 of about 90 bytes: some 370 KB, the same in every JVM.
   */
  private static final String[] SENTENCES = new String[4096];

  static {
    SplittableRandom random = new SplittableRandom(0x53454e54L);
    StringBuilder sb = new StringBuilder(200);
    for (int i = 0; i < SENTENCES.length; i++) {
      sb.setLength(0);
      buildSentence(sb, random);
      SENTENCES[i] = sb.toString();
    }
  }

  static String word(SplittableRandom random) {
    return WORDS[random.nextInt(WORDS.length)];
  }

  /** A page title ("Tuning crawl delays") chosen by the bits of {@code key}. */
  static void title(StringBuilder sb, long key) {
    int verb = (int) Long.remainderUnsigned(key, TITLE_VERBS.length);
    int noun = (int) Long.remainderUnsigned(key >>> 20, TITLE_NOUNS.length);
    sb.append(TITLE_VERBS[verb]).append(' ').append(TITLE_NOUNS[noun]);
  }

  /** A sentence of 8 to 19 words, capitalized, ending in a full stop, followed by a space. */
  static void sentence(StringBuilder sb, SplittableRandom random) {
    sb.append(SENTENCES[random.nextInt(SENTENCES.length)]);
  }

  private static void buildSentence(StringBuilder sb, SplittableRandom random) {
    int words = 8 + random.nextInt(12);
    int start = sb.length();
    for (int i = 0; i < words; i++) {
      if (i > 0) {
        sb.append(i % 7 == 6 && random.nextInt(3) == 0 ? ", " : " ");
      }
      sb.append(word(random));
    }
    sb.setCharAt(start, Character.toUpperCase(sb.charAt(start)));
    sb.append(". ");
  }
}
