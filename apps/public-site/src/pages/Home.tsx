import { Message, useT } from '@xoss/i18n/react';
import { DeviceIllustration, ProductCard } from '@xoss/ui-kit';
import { SHOP_URL, accessories, computers, type Product } from '../products.ts';

/** One list of product cards with Buy Now, under its heading. */
function ProductCards({
  id,
  heading,
  items,
}: {
  id: string;
  heading: 'product.lineup' | 'product.accessories';
  items: readonly Product[];
}) {
  const t = useT();
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{t(heading)}</h2>
      <ul className="site__cards">
        {items.map((product) => (
          <li key={product.slug}>
            <ProductCard
              name={t(product.name)}
              tagline={t(product.tagline)}
              href={`/product/${product.slug}`}
              buyHref={SHOP_URL}
              theme={product.theme}
              headingLevel={3}
              illustration={<DeviceIllustration shape={product.shape} title={t(product.name)} />}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Home (spec 2): the line-up as product cards with Buy Now; computers, then sensors and lights. */
export function Home() {
  return (
    <>
      <h1>
        <Message id="app.title" />
      </h1>
      <p className="site__lead">
        <Message id="app.description" />
      </p>
      <ProductCards id="lineup" heading="product.lineup" items={computers} />
      <ProductCards id="sensors" heading="product.accessories" items={accessories} />
    </>
  );
}
