/**
 * A project's blog, in its two types (text posts and stories): publishing and the
 * pages `/blog` serves, where supporter-only posts are redacted for callers who
 * are not entitled to them.
 */
import type { BlogPost } from '../api/schemas/index.js';
import { readingTimeMinutes, teaserOf } from './blog-text.js';
import { insertChronological, type Page, slicePage } from './chronological-list.js';
import type { ProjectFacts, SimProjectContext } from './project-context.js';
import type { AddBlogPostInput, ListOrder, SimHistoryEntry } from './types.js';
import { fileObject, toSeconds } from './wire-units.js';

interface BlogRecord {
  readonly at: number;
  readonly id: number;
  readonly title: string;
  readonly text: string;
  readonly type: 'text' | 'story';
  readonly supporterOnly: boolean;
  readonly description: string;
}

/** The blog posts of one project, oldest first within each type. */
export class ProjectBlog {
  readonly #posts: { text: BlogRecord[]; story: BlogRecord[] } = { text: [], story: [] };
  readonly #project: ProjectFacts;
  readonly #ctx: Pick<SimProjectContext, 'clock' | 'ids' | 'publicBaseUrl'>;
  readonly #history: SimHistoryEntry[];

  constructor(
    project: ProjectFacts,
    ctx: Pick<SimProjectContext, 'clock' | 'ids' | 'publicBaseUrl'>,
    history: SimHistoryEntry[],
  ) {
    this.#project = project;
    this.#ctx = ctx;
    this.#history = history;
  }

  /** Publishes a blog post; returns its id. */
  add(input: AddBlogPostInput): number {
    const at = input.at ?? this.#ctx.clock.now();
    const id = this.#ctx.ids.next('blog');
    insertChronological(this.#posts[input.type], {
      at,
      id,
      title: input.title,
      text: input.text,
      type: input.type,
      supporterOnly: input.supporterOnly,
      description: teaserOf(input.text, input.description),
    });
    this.#history.push({
      type: 'blog-post',
      at,
      id,
      blogType: input.type,
      supporterOnly: input.supporterOnly,
    });
    return id;
  }

  /** Blog posts of one type; supporter-only posts are redacted unless `entitled`. */
  page(
    type: 'text' | 'story',
    offset: number,
    limit: number,
    order: ListOrder,
    entitled: boolean,
  ): Page<BlogPost> {
    return slicePage(this.#posts[type], offset, limit, order, (b) => this.#view(b, entitled));
  }

  /** Both types merged in publication order, unredacted (for the ground truth). */
  all(): BlogPost[] {
    const posts = [...this.#posts.text, ...this.#posts.story].sort((a, b) => a.at - b.at || a.id - b.id);
    return posts.map((b) => this.#view(b, true));
  }

  #view(b: BlogRecord, entitled: boolean): BlogPost {
    const { publicBaseUrl } = this.#ctx;
    const { linkCaption } = this.#project;
    const media = `${publicBaseUrl}/media/${linkCaption}/blog-${b.id}`;
    const locked = b.supporterOnly && !entitled;
    const base = {
      id: b.id,
      title: b.title,
      type: b.type,
      status: 'published',
      release_timestamp: toSeconds(b.at),
      is_supporter_only: b.supporterOnly,
      description: b.description,
      reading_time_minutes: readingTimeMinutes(b.text),
      url: `${publicBaseUrl}/${linkCaption}/blog/${b.id}`,
    };
    if (locked) {
      return {
        ...base,
        text: '',
        is_locked: true,
        image: null,
        image_mobile: null,
        gallery_images: [],
        embed_url_13: '',
        video: null,
      };
    }
    return {
      ...base,
      text: b.text,
      is_locked: false,
      image: fileObject(`${media}.jpg`),
      image_mobile: fileObject(`${media}-mobile.jpg`),
      gallery_images: [fileObject(`${media}-1.jpg`)],
      embed_url_13: b.type === 'story' ? `https://video.example/embed/${b.id}` : '',
      video: b.type === 'story' ? { url: `https://video.example/${b.id}.mp4` } : null,
    };
  }
}
